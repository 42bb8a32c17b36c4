# Generates cases.json: what CRuby's IO.foreach yields, and the line number after each record,
# for a list of interesting inputs and option sets, so that ruby_test.go can check the engine
# against Ruby without Ruby installed. From the repository root:
#
#     ruby linereader/testdata/ruby/gen.rb > linereader/testdata/ruby/cases.json
#
# Files are opened in binary mode ("rb"); the UTF8 option is Ruby's "rb:UTF-8" (binary, no
# newline conversion, UTF-8 as the external encoding, which makes a limit cut wait for the end
# of a character).
#
# Every case is decided on its own: the records are also cut by ours_split, this project's
# rules (docs/semantics.md) written out a second time, in Ruby. Where Ruby and ours_split
# agree, the case is compared with Ruby. Where they disagree, the difference must be one of
# the deliberate differences the document lists (DIFFERENCES below): the case keeps Ruby's
# records and carries ours_split's in "ours_records"/"ours_linenos" with the difference's id in
# "ours", and the test asserts both that the engine yields ours and that Ruby does not. A
# disagreement that no listed difference explains stops the generator: either the rules or
# ours_split is wrong, and a person must decide which.

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

# The deliberate differences from CRuby, by id; docs/semantics.md explains each, and
# ruby_test.go knows the same ids.
DIFFERENCES = {
  "whole-chomp" => "Whole with Chomp removes nothing (as Ruby 3.2 and later; older Rubies chomp a final newline)",
  "whole-limit-ff" => "Whole with a limit cuts Limit-byte pieces only (CRuby also cuts after every 0xFF byte)",
  "limit-multibyte-sep" => "the limit is always honoured (CRuby lets a record run past it when a multi-byte separator's last byte lands on the limit)",
  "utf8-final-lineno" => "a final piece cut by the limit does not count as a line (CRuby counts it when it ends inside an incomplete character)",
}

# explain returns the id of the deliberate difference that explains why Ruby's records differ
# from ours, or nil if none does. Each test is the documented condition of one difference,
# checked against what Ruby actually yielded.
def explain(input, mode, sep, limit, chomp, utf8, ruby, ours)
  return "whole-chomp" if mode == "whole" && chomp
  return "whole-limit-ff" if mode == "whole" && limit && input.include?("\xFF".b)
  longer = limit && ruby.any? { |r, _| r.bytesize > honest_cut(r, limit, utf8) }
  multi = { "sep" => sep, "paragraph" => "\n\n".b }[mode]
  if limit && multi && multi.bytesize > 1
    # CRuby skips its limit check when the byte just read is the separator's last but the
    # separator is not there: the record is shorter than the separator, or, with UTF-8,
    # the place where it would start is inside a character. It reads on past the limit,
    # or, at end of input, counts the piece as a line. Either Ruby's record is longer than
    # the limit allows, or the records are the same and the first line number that differs
    # is on such a piece.
    return "limit-multibyte-sep" if longer
    if ruby.map(&:first) == ours.map(&:first)
      k = ruby.each_index.find { |i| ruby[i][1] != ours[i][1] }
      return "limit-multibyte-sep" if k && ruby[k][0].end_with?(multi.byteslice(-1))
    end
  end
  # Same records, only the last line number differs, on a final piece cut by the limit
  # that ends inside an incomplete character.
  if utf8 && limit && ruby.map(&:first) == ours.map(&:first) && !ruby.empty? &&
     ruby[0...-1] == ours[0...-1] && incomplete?(ruby.last[0]) && ruby.last[0].bytesize >= limit
    return "utf8-final-lineno"
  end
  nil
end

# ours_split cuts input into records by this project's rules (docs/semantics.md), as a
# list of [record, line number after it]: the reference the deliberate differences are
# stored from. It is written to be read against the document, rule by rule.
def ours_split(input, mode, sep, limit, chomp, utf8)
  s = case mode
      when "default" then "\n".b
      when "paragraph" then "\n\n".b
      when "whole" then nil
      else sep.b
      end
  recs = []
  lineno = 0
  pos = 0
  loop do
    # Paragraph mode: newlines before a record are skipped.
    pos += 1 while mode == "paragraph" && pos < input.bytesize && input.getbyte(pos) == 10
    break if pos >= input.bytesize
    rest = input.byteslice(pos..)
    window = limit && rest.bytesize > limit ? rest.byteslice(0, limit) : rest
    fin = window.bytesize
    terminated = false
    cut = !limit.nil? && rest.bytesize >= limit # the limit ends this record, unless a separator does
    if s && (i = window.index(s)) # leftmost separator that fits within the limit
      fin = i + s.bytesize
      terminated = true
      cut = false
    end
    # UTF-8: a cut inside an incomplete character moves on one byte at a time, at most 3.
    if cut && utf8
      3.times do
        break unless fin < rest.bytesize && incomplete?(rest.byteslice(0, fin))
        fin += 1
        if s && rest.byteslice(0, fin).end_with?(s)
          terminated = true
          cut = false
          break
        end
      end
    end
    rec = rest.byteslice(0, fin)
    lineno += 1 unless cut
    if chomp && terminated
      rec = if mode == "paragraph"
              rec.byteslice(0, rec.bytesize - 2)
            elsif s == "\n".b # the default separator, spelled out or not: "\r\n" goes too
              rec.delete_suffix("\n".b).delete_suffix("\r".b)
            else
              rec.byteslice(0, rec.bytesize - s.bytesize)
            end
    end
    recs << [rec, lineno]
    pos += fin
  end
  recs
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
            ours = ours_split(input, mode, sep, limit, chomp, utf8)
            if ours != recs
              id = explain(input, mode, sep, limit, chomp, utf8, recs, ours)
              # Chomp hides how long Ruby's records were: explain a chomped case by the same
              # case unchomped, when Ruby differs from ours there too.
              if id.nil? && chomp
                raw = run(tmp.path, mode, sep, limit, false, utf8)
                raw_ours = ours_split(input, mode, sep, limit, false, utf8)
                id = explain(input, mode, sep, limit, false, utf8, raw, raw_ours) if raw != raw_ours
              end
              if id.nil?
                raise "input #{input.inspect} mode #{mode} sep #{sep.inspect} limit #{limit.inspect} chomp #{chomp} " \
                      "utf8 #{utf8}: Ruby #{recs.inspect}, ours #{ours.inspect}, and no deliberate difference explains it"
              end
              c["ours"] = id
              c["ours_records"] = ours.map { |r, _| b64(r) }
              c["ours_linenos"] = ours.map { |_, n| n }
            end
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
  "differences" => DIFFERENCES,
  "inputs" => INPUTS.map { |s| b64(s) },
}
puts JSON.generate(head).delete_suffix("}") + ',"cases":['
puts cases.map { |c| JSON.generate(c) }.join(",\n")
puts "]}"
