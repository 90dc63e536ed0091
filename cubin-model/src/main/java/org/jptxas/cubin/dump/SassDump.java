package org.jptxas.cubin.dump;

import java.util.List;
import org.jptxas.cubin.Cubin;
import org.jptxas.cubin.ElfHeader;
import org.jptxas.cubin.Section;
import org.jptxas.sass.SassInstruction;
import org.jptxas.sass.SassIsa;
import org.jptxas.sass.SassPrinter;
import org.apache.commons.lang3.StringUtils;

/**
 * Prints the code of a cubin the way {@code cuobjdump -sass} does: per function its name, header flags, and each
 * instruction with its address and its two 64-bit words. Decoding uses the SASS tables the caller gives (the
 * target's backend's); words no table form explains print as {@code UNKNOWN}.
 */
public final class SassDump {
    private SassDump() {}

    /** The dump, decoding with {@code isa} (the tables of the cubin's target, from its backend's description). */
    public static String print(Cubin cubin, SassIsa isa) {
        int sm = cubin.sm();
        StringBuilder out = new StringBuilder();
        out.append("\n\tcode for sm_").append(sm).append('\n');
        for (Section text : cubin.textSections()) {
            out.append("\t\tFunction : ").append(text.functionName()).append('\n');
            out.append("\t.headerflags\t@\"").append(headerFlags(cubin.header())).append("\"\n");
            byte[] code = text.data();
            int length = code.length - code.length % 16;
            List<SassInstruction> instructions = isa.decodeAll(code, 0, length);
            boolean padding = false;
            for (int i = 0; i < instructions.size(); i++) {
                SassInstruction inst = instructions.get(i);
                long address = 16L * i;
                String asm = SassPrinter.text(inst, address, null);
                // cuobjdump drops the space before ';' from the closing self-branch on (the end-of-code padding).
                padding |= asm.equals("BRA 0x" + Long.toHexString(address));
                String line = String.format("        /*%04x*/                   %s%s", address, asm, padding ? ";" : " ;");
                out.append(pad(line, 86)).append(String.format("/* 0x%016x */%n", inst.lo()));
                out.append(" ".repeat(86)).append(String.format("/* 0x%016x */%n", inst.hi()));
            }
            out.append("\t\t..........\n\n\n");
        }
        return out.toString();
    }

    /** {@code s} padded to {@code width} columns, with at least one blank after it. */
    private static String pad(String s, int width) {
        return s.length() >= width ? s + " " : StringUtils.rightPad(s, width);
    }

    /** ABI v7 flags decoded as cuobjdump 12.5 does; ABI v8 flags as the SM number. */
    static String headerFlags(ElfHeader h) {
        int f = h.flags();
        if (h.v8Layout()) {
            return "EF_CUDA_SM" + h.sm();
        }
        StringBuilder sb = new StringBuilder();
        if ((f & 0x100) != 0) {
            sb.append("EF_CUDA_TEXMODE_UNIFIED ");
        }
        if ((f & 0x200) != 0) {
            sb.append("EF_CUDA_TEXMODE_INDEPENDENT ");
        }
        if ((f & 0x400) != 0) {
            sb.append("EF_CUDA_64BIT_ADDRESS ");
        }
        sb.append("EF_CUDA_SM").append(f & 0xff);
        sb.append(" EF_CUDA_VIRTUAL_SM(EF_CUDA_SM").append((f >>> 16) & 0xff).append(')');
        return sb.toString();
    }
}
