# Generates cases.json: what CRuby's IO.foreach yields, and the line number after each record,
# for a list of interesting inputs and option sets, so that ruby_test.go can check the engine
# against Ruby without Ruby installed. Run from this directory:
#
#     ruby gen.rb > cases.json
#
# Files are opened in binary mode ("rb"); the UTF8 option is Ruby's "rb:UTF-8" (binary, no
# newline conversion, UTF-8 as the external encoding, which makes a limit cut wait for the end
# of a character). Cases where SEMANTICS.md says we deliberately differ ("(ours)") are kept in
# the file with the reason in "ours", and skipped by the test.

require "json"
require "base64"
require "tempfile"

def b64(s) = Base64.strict_encode64(s.b)

INPUTS = [
  "", "\n", "\n\n\n", "a", "a\nb", "a\nbb\nccc\n", "abc", "abcdef\nxy\n",
  "aaaaa", "ababababa", "xxabyyab", "abcabc", "ab", "abab", "aba\nabc\n\n",
  "a\r\nb\r\n", "x\r\r\n", "x\r", "\r\n\r\n", "\n\r\n", "a\nb\r\nc\r",
  "a\n\nb\n", "\n\n\na\n\nb", "a\n\n\n\nb\n\n\n", "a\n \nb\n", "a\r\n\r\nb", "a\n\n", "\n\nabc\n\n\nd",
  "ab\xFFcd\ne", "\xFF\xFF\n\xFF",
  "a\xE3\x81bcd", "a\xE3\x81\x82b", "a\xE3\nb\n", "\xE3\n\x81", "\xF0\x9F\x98\x80x",
  "\xE3\x81\x82\xE3\x81\x82\n\xE3\x81\x82", "\xFF\xFEa\x81", "one\ntwo\r\nthree\r\r\n\n\nfour\xE3\x81\x82five\n\n\n\nsix ab aba\nlast",
].map(&:b)

# Random inputs over the differential test's alphabet, from a fixed seed.
ALPHABET = ["a", "b", "\n", "\r", "\xE3", "\x81", "\x82", "\xFF", " "].map(&:b)
rng = Random.new(20240601)
20.times { INPUTS << Array.new(rng.rand(1..24)) { ALPHABET[rng.rand(ALPHABET.size)] }.join.b }

# [mode, sep]: the sep given to Ruby; mode names the Options that express it.
SEPS = [
  ["default", nil], ["sep", "\n"], ["sep", "b"], ["sep", "ab"], ["sep", "aa"], ["sep", "aba"],
  ["sep", "\r\n"], ["sep", "\n\n"], ["sep", "abc"], ["paragraph", ""], ["whole", nil],
]
LIMITS = [nil, 1, 2, 3, 4, 7]

def ours(input, mode, sep, limit, chomp, utf8)
  return "Whole+Chomp removes nothing (Ruby 3.2+; this is #{RUBY_VERSION})" if mode == "whole" && chomp
  return "Whole+limit: CRuby also cuts after 0xFF" if mode == "whole" && limit && input.include?("\xFF".b)
  return "multi-byte separator on a limit shorter than it" if mode == "sep" && sep.bytesize > 1 && limit && limit < sep.bytesize
  nil
end

# incomplete?(s): s ends inside an incomplete UTF-8 character, i.e. its tail from the last
# non-continuation byte is invalid but some continuation bytes would make it valid.
CONTS = ["\x80", "\x90", "\xA0", "\xBF"].map(&:b)
def incomplete?(s)
  i = s.bytesize - 1
  i -= 1 while i >= 0 && (s.getbyte(i) & 0xC0) == 0x80
  return false if i < 0
  tail = s.byteslice(i..)
  return false if tail.dup.force_encoding("UTF-8").valid_encoding?
  (1..3).any? { |k| CONTS.repeated_permutation(k).any? { |c| (tail + c.join).force_encoding("UTF-8").valid_encoding? } }
end

# The longest record a limit allows: the limit, extended while the character is incomplete.
def honest_cut(r, limit, utf8)
  n = limit
  3.times { n += 1 if utf8 && n < r.bytesize && incomplete?(r.byteslice(0, n)) }
  n
end

def run(path, mode, sep, limit, chomp, utf8)
  args = []
  args << sep unless mode == "default"
  args << limit if limit
  fmode = utf8 ? "rb:UTF-8" : "rb"
  recs = []
  File.open(path, fmode) do |f|
    f.each_line(*args, chomp: chomp) { |l| recs << [l.b, f.lineno] }
  end
  # IO.foreach itself must agree on the records.
  via_foreach = IO.foreach(path, *args, mode: fmode, chomp: chomp).map(&:b)
  raise "IO.foreach disagrees with each_line for #{path}" unless via_foreach == recs.map(&:first)
  recs
end

cases = []
Tempfile.create("case", binmode: true) do |tmp|
  INPUTS.each_with_index do |input, idx|
    File.binwrite(tmp.path, input)
    SEPS.each do |mode, sep|
      LIMITS.each do |limit|
        [false, true].each do |chomp|
          [false, true].each do |utf8|
            next if utf8 && limit.nil? # without a limit UTF8 changes nothing
            next if utf8 && !input.bytes.any? { |c| c >= 0x80 }
            recs = run(tmp.path, mode, sep, limit, chomp, utf8)
            c = { "input" => idx, "mode" => mode, "limit" => limit || 0, "chomp" => chomp, "utf8" => utf8,
                  "records" => recs.map { |r, _| b64(r) }, "linenos" => recs.map { |_, n| n } }
            c["sep"] = b64(sep) if mode == "sep"
            reason = ours(input, mode, sep, limit, chomp, utf8)
            # The limit is always honoured (ours); with UTF-8 CRuby also skips its limit check
            # when a multi-byte separator's last byte lands on the limit after an incomplete
            # character (its at_char_boundary test), so a record longer than its honest cut
            # is that corner.
            if reason.nil? && limit && recs.any? { |r, _| r.bytesize > honest_cut(r, limit, utf8) }
              reason = "CRuby ignored the limit: multi-byte separator's last byte on the limit"
            end
            # Not marked (ours) in SEMANTICS.md, but its LineNo rule says so: a final piece cut by
            # the limit does not count. CRuby counts it when it ends inside an incomplete
            # character (its extension loop meets end of input before giving up).
            if reason.nil? && utf8 && limit && !recs.empty? &&
               recs.last[0].bytesize >= limit && incomplete?(recs.last[0])
              reason = "UTF8 final piece cut by the limit, incomplete at end of input: CRuby counts it in lineno"
            end
            c["ours"] = reason if reason
            cases << c
          end
        end
      end
    end
  end
end

# One case per line, so that a regenerated file diffs readably.
head = {
  "ruby_version" => RUBY_DESCRIPTION,
  "generator" => "linereader/testdata/ruby/gen.rb",
  "inputs" => INPUTS.map { |s| b64(s) },
}
puts JSON.generate(head).delete_suffix("}") + ',"cases":['
puts cases.map { |c| JSON.generate(c) }.join(",\n")
puts "]}"
