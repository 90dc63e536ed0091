package org.jptxas.simulator.sass;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The instructions of every function of a cubin, by address, from jptxas's own SASS decoder
 * ({@code org.jptxas.isel.sass}; no NVIDIA tool). The emulator executes the decoded instructions through the
 * printer's nvdisasm-syntax text, which {@link SassParser} turns into {@link SassOp}s (a first step: emulating the
 * decoded forms directly would skip the text).
 */
public final class SassListing {
    private final Map<String, List<SassOp>> functions;

    private SassListing(Map<String, List<SassOp>> functions) {
        this.functions = functions;
    }

    public Map<String, List<SassOp>> functions() {
        return functions;
    }

    /** Undecodable bits print as {@code UNKNOWN 0x<128-bit hex>}; executing one stops the run with its address. */
    static final String UNKNOWN = "UNKNOWN";

    /**
     * Decodes every {@code .text.<function>} section of a cubin with jptxas's decoder for {@code sm} (e.g.
     * {@code sm_90}; null takes the SM from the ELF header).
     */
    public static SassListing decode(String sm, byte[] cubinBytes) {
        return decode(sm, org.jptxas.isel.cubin.Cubin.read(cubinBytes));
    }

    public static SassListing decode(String sm, org.jptxas.isel.cubin.Cubin cubin) {
        org.jptxas.isel.sass.SassIsa isa = org.jptxas.isel.sass.SassIsa.forSm(sm != null ? sm : "sm_" + cubin.sm());
        Map<String, List<SassOp>> out = new LinkedHashMap<>();
        for (org.jptxas.isel.cubin.Section s : cubin.textSections()) {
            out.put(s.functionName(), decodeFunction(isa, s.data()));
        }
        return new SassListing(out);
    }

    /** One function's code; every branch, call and reconvergence target gets a label at its own address. */
    static List<SassOp> decodeFunction(org.jptxas.isel.sass.SassIsa isa, byte[] code) {
        List<org.jptxas.isel.sass.SassInstruction> instrs = isa.decodeAll(code, 0, code.length - code.length % 16);
        Map<String, Long> labels = new HashMap<>();
        org.jptxas.isel.sass.LabelNamer namer = address -> {
            String name = ".L_" + Long.toHexString(address);
            labels.put(name, address);
            return name;
        };
        List<String> texts = new ArrayList<>(instrs.size());
        for (int k = 0; k < instrs.size(); k++) {
            texts.add(org.jptxas.isel.sass.SassPrinter.text(instrs.get(k), 16L * k, namer));
        }
        List<SassOp> ops = new ArrayList<>(instrs.size());
        for (int k = 0; k < instrs.size(); k++) {
            ops.add(instrs.get(k) instanceof org.jptxas.isel.sass.SassInstruction.Known
                    ? SassParser.parse(16L * k, texts.get(k), labels)
                    : new SassOp(16L * k, 7, false, false, UNKNOWN, List.of(), List.of(), texts.get(k)));
        }
        return List.copyOf(ops);
    }
}
