package org.jptxas.testing.kernels;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * The corpus's one-thread instruction tests (ZLUDA's {@code (input, output)} kernels): one thread loads its operands
 * from {@code input}, applies one instruction and stores to {@code output}. Each is launched on one thread with fixed
 * operands that reach the instruction's interesting bits (carries, sign bytes, a field crossing a byte).
 */
final class CorpusInstructionKernels {
    private CorpusInstructionKernels() {}

    /** A one-thread test of {@code ptx/zluda/<name>.ptx}, entry {@code name}, with 32-bit input words. */
    private static CorpusKernels.Spec test(String name, int[] input, Elem outElem, int outCount, Consumer<Io> reference) {
        String file = "ptx/zluda/" + name + ".ptx";
        return new CorpusKernels.Spec(file, p -> CorpusKernels.kernel(file, name, false, p)
                .describe("one thread: " + name).grid(1).block(1).in("input", input).out("output", outElem, outCount),
                reference);
    }

    static List<CorpusKernels.Spec> specs() {
        List<CorpusKernels.Spec> s = new ArrayList<>();
        s.add(test("clz", new int[] {0x0001_2345}, Elem.I32, 1,
                io -> io.i32("output")[0] = Integer.numberOfLeadingZeros(io.i32("input")[0])));
        s.add(test("brev", new int[] {0x1234_5679}, Elem.I32, 1,
                io -> io.i32("output")[0] = Integer.reverse(io.i32("input")[0])));
        s.add(test("popc_b64", new int[] {0xf0f0_1357, 0x8000_0001}, Elem.I32, 1,
                io -> io.i32("output")[0] = Long.bitCount(io.i64("input")[0])));
        s.add(test("bfe", new int[] {0xdead_beef, 7, 13}, Elem.I32, 1, io -> {
            int[] in = io.i32("input");
            io.i32("output")[0] = bfeU32(in[0], in[1] & 0xff, in[2] & 0xff);
        }));
        s.add(test("bfi", new int[] {0x0000_0abc, 0x1234_5678, 9, 12}, Elem.I32, 1, io -> {
            int[] in = io.i32("input");
            int mask = (int) (((1L << in[3]) - 1) << in[2]);
            io.i32("output")[0] = (in[1] & ~mask) | ((in[0] << in[2]) & mask);
        }));
        s.add(test("prmt", new int[] {0x1122_3344, 0xa5b6_c7d8}, Elem.I32, 1, io -> {
            int[] in = io.i32("input");
            io.i32("output")[0] = prmt(in[0], in[1], 30212);
        }));
        s.add(test("mad_wide", new int[] {-123_456, 98_765, 0x89ab_cdef, 0x0000_0012}, Elem.I64, 1, io -> {
            int[] in = io.i32("input");
            long c = (in[2] & 0xffff_ffffL) | ((long) in[3] << 32);
            io.i64("output")[0] = (long) in[0] * in[1] + c;
        }));
        s.add(test("copysign", new int[] {Float.floatToRawIntBits(-0.5f), Float.floatToRawIntBits(3.75f)}, Elem.F32,
                1, io -> {
                    // copysign.f32 d, a, b: b's magnitude with a's sign
                    float[] in = io.f32("input");
                    io.f32("output")[0] = Math.copySign(in[1], in[0]);
                }));
        s.add(test("add_extended", new int[] {0xffff_ffff, 0xffff_fffe, 0x7fff_ffff, 1, 1, 1, 0x8000_0000, 2},
                Elem.I32, 4, io -> {
                    int[] in = io.i32("input"), out = io.i32("output");
                    long carry = 0;
                    for (int i = 0; i < 4; i++) {
                        long sum = (in[i] & 0xffff_ffffL) + (in[4 + i] & 0xffff_ffffL) + carry;
                        out[i] = (int) sum;
                        carry = sum >>> 32;
                    }
                }));
        s.add(test("dp4a", new int[] {0x80ff_7f01, 0x02fe_8003, -1000}, Elem.I32, 1, io -> {
            int[] in = io.i32("input");
            int sum = in[2];
            for (int b = 0; b < 4; b++) {
                sum += (byte) (in[0] >> (8 * b)) * (byte) (in[1] >> (8 * b));
            }
            io.i32("output")[0] = sum;
        }));
        return s;
    }

    /** {@code bfe.u32}: {@code len} bits of {@code a} from {@code pos}, zero beyond bit 31. */
    private static int bfeU32(int a, int pos, int len) {
        int d = 0;
        for (int i = 0; i < len && i < 32; i++) {
            int bit = pos + i <= 31 ? (a >>> (pos + i)) & 1 : 0;
            d |= bit << i;
        }
        return d;
    }

    /** {@code prmt.b32} in its default mode: each result byte picks one of the eight bytes of {b, a}. */
    private static int prmt(int a, int b, int selector) {
        long bytes = (a & 0xffff_ffffL) | ((b & 0xffff_ffffL) << 32);
        int d = 0;
        for (int i = 0; i < 4; i++) {
            int sel = (selector >> (4 * i)) & 0xf;
            int v = (int) (bytes >>> (8 * (sel & 7))) & 0xff;
            if ((sel & 8) != 0) {
                v = (v & 0x80) != 0 ? 0xff : 0;
            }
            d |= v << (8 * i);
        }
        return d;
    }
}
