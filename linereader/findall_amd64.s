#include "textflag.h"

// func appendEndsSSE2(p []byte, c byte, base int, dst []int) int
//
// Writes base+i+1 to dst, in order, for every index i with p[i] == c, and returns how
// many it wrote. The caller gives dst len(p) elements at least, one per byte of p, so
// that no write can pass its end. 16 bytes of p are compared at a time (SSE2, which
// every amd64 processor has); the set bits of the comparison's mask are the matches.
TEXT ·appendEndsSSE2(SB), NOSPLIT, $0-72
	MOVQ p_base+0(FP), SI
	MOVQ p_len+8(FP), BX
	MOVBLZX c+24(FP), AX
	MOVQ base+32(FP), R8
	MOVQ dst_base+40(FP), DI
	XORQ R9, R9 // matches written
	XORQ CX, CX // index of the block in p

	// X0 = c in each of its 16 bytes.
	IMULL $0x01010101, AX
	MOVD AX, X0
	PSHUFD $0, X0, X0

block:
	LEAQ 16(CX), DX
	CMPQ DX, BX
	JA tail
	MOVOU (SI)(CX*1), X1
	PCMPEQB X0, X1
	PMOVMSKB X1, DX
	TESTL DX, DX
	JZ next

match:
	BSFL DX, R10
	LEAQ 1(R8)(CX*1), R11
	ADDQ R10, R11
	MOVQ R11, (DI)(R9*8)
	INCQ R9
	LEAL -1(DX), R10
	ANDL R10, DX
	JNZ match

next:
	ADDQ $16, CX
	JMP block

tail:
	CMPQ CX, BX
	JAE done
	MOVBLZX (SI)(CX*1), DX
	CMPB DL, AL
	JNE tailnext
	LEAQ 1(R8)(CX*1), R11
	MOVQ R11, (DI)(R9*8)
	INCQ R9

tailnext:
	INCQ CX
	JMP tail

done:
	MOVQ R9, ret+64(FP)
	RET

// func reverseRecordsAsm(dst []byte, data []byte, ends []int, end int) int
//
// Copies the records data[ends[i]:e] (e being end for the last i, ends[i+1] for the
// others) to dst back to back, the last first, and returns how many bytes it wrote:
// end - ends[0]. The caller checks 0 <= ends[0] <= ... <= end <= len(data) and
// len(dst) >= end - ends[0]. Each record is copied as memmove copies a short one, with
// moves that overlap within the record (16 bytes at a time, the last move ending at its
// end; two of 8 or of 4 bytes; bytes), so that nothing is read or written outside it,
// and without a call per record.
TEXT ·reverseRecordsAsm(SB), NOSPLIT, $0-88
	MOVQ dst_base+0(FP), DI
	MOVQ data_base+24(FP), SI
	MOVQ ends_base+48(FP), R8
	MOVQ ends_len+56(FP), R9
	MOVQ end+72(FP), R10
	MOVQ DI, R11

record:
	DECQ R9
	JL finished
	MOVQ (R8)(R9*8), BX
	MOVQ R10, CX
	SUBQ BX, CX
	LEAQ (SI)(BX*1), AX
	MOVQ BX, R10
	CMPQ CX, $16
	JB under16
	LEAQ -16(AX)(CX*1), DX
	LEAQ -16(DI)(CX*1), R12
	MOVOU (DX), X1

blocks:
	MOVOU (AX), X0
	MOVOU X0, (DI)
	ADDQ $16, AX
	ADDQ $16, DI
	SUBQ $16, CX
	CMPQ CX, $16
	JA blocks
	MOVOU X1, (R12)
	LEAQ 16(R12), DI
	JMP record

under16:
	CMPQ CX, $8
	JB under8
	MOVQ (AX), DX
	MOVQ -8(AX)(CX*1), BX
	MOVQ DX, (DI)
	MOVQ BX, -8(DI)(CX*1)
	ADDQ CX, DI
	JMP record

under8:
	CMPQ CX, $4
	JB under4
	MOVL (AX), DX
	MOVL -4(AX)(CX*1), BX
	MOVL DX, (DI)
	MOVL BX, -4(DI)(CX*1)
	ADDQ CX, DI
	JMP record

under4:
	TESTQ CX, CX
	JZ record
	MOVB (AX), DX
	MOVB -1(AX)(CX*1), BX
	MOVB DX, (DI)
	MOVB BX, -1(DI)(CX*1)
	CMPQ CX, $3
	JB short
	MOVB 1(AX), DX
	MOVB DX, 1(DI)

short:
	ADDQ CX, DI
	JMP record

finished:
	SUBQ R11, DI
	MOVQ DI, ret+80(FP)
	RET
