package org.jptxas.scheduler.sass;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jptxas.cubin.Cubin;
import org.jptxas.cubin.Section;
import org.jptxas.sass.LabelNamer;
import org.jptxas.sass.SassInstruction;
import org.jptxas.sass.SassIsa;
import org.jptxas.sass.SassPrinter;

/**
 * The instructions of a cubin's {@code .text} sections, decoded by jptxas's own SASS decoder and printed in
 * nvdisasm's syntax, as {@link SassLine}s: the same input {@link ControlAgreement} takes from {@code nvdisasm -hex},
 * without the NVIDIA tool. Entry point for {@code jnvdisasm --recompute-control} and {@code --check-hazards}.
 */
public final class DecodedListing {
    private DecodedListing() {}

    /** Functions of the cubin, in section order, decoded with {@code isa}. */
    public static Map<String, List<SassLine>> fromCubin(byte[] cubinBytes, SassIsa isa) {
        Cubin cubin = Cubin.read(cubinBytes);
        Map<String, List<SassLine>> out = new LinkedHashMap<>();
        for (Section s : cubin.textSections()) {
            out.put(s.functionName(), lines(isa, s.functionName(), s.data()));
        }
        return out;
    }

    /** Whether the cubin holds debug code (ptxas for a {@code .target ..., debug} module: it has {@code .debug_info}). */
    public static boolean isDebug(byte[] cubinBytes) {
        return Cubin.read(cubinBytes).section(".debug_info").isPresent();
    }

    /** Decodes one function's code bytes; branch targets get {@code .L_<hex address>} labels. */
    public static List<SassLine> lines(SassIsa isa, String function, byte[] code) {
        List<SassInstruction> instrs = isa.decodeAll(code, 0, code.length - code.length % 16);
        Set<Long> targets = new HashSet<>();
        List<Long> named = new ArrayList<>();
        LabelNamer namer = address -> {
            named.add(address);
            return label(address);
        };
        List<String> texts = new ArrayList<>(instrs.size());
        for (int k = 0; k < instrs.size(); k++) {
            named.clear();
            texts.add(SassPrinter.text(instrs.get(k), 16L * k, namer));
            // Labels where nvdisasm prints them: jump targets and BSSY reconvergence points (not CALL targets).
            if (instrs.get(k) instanceof SassInstruction.Known kn && (kn.mnemonic().equals("BRA") || kn.mnemonic().equals("JMP") || kn.mnemonic().equals("BSSY"))) {
                targets.addAll(named);
            }
        }
        List<SassLine> out = new ArrayList<>(instrs.size());
        for (int k = 0; k < instrs.size(); k++) {
            long address = 16L * k;
            SassInstruction in = instrs.get(k);
            out.add(new SassLine(function, (int) address, texts.get(k), in.lo(), in.hi(),
                    targets.contains(address) ? label(address) : null,
                    in instanceof SassInstruction.Known kn ? kn : null));
        }
        return out;
    }

    private static String label(long address) {
        return ".L_" + Long.toHexString(address);
    }
}
