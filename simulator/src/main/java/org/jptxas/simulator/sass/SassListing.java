package org.jptxas.simulator.sass;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The instructions of every function of a cubin, by address. {@link #decode} takes them from jptxas's own SASS decoder
 * ({@code org.jptxas.isel.sass}), which needs no NVIDIA tool; {@link #parse} reads an nvdisasm {@code -c} listing (kept
 * for cross-checks: both must give the same instructions). The emulator executes the decoded instructions through
 * the printer's nvdisasm-syntax text, which {@link SassParser} turns into {@link SassOp}s.
 */
public final class SassListing {
    private static final Pattern SECTION = Pattern.compile("^\\s*\\.section\\s+\\.text\\.([^,\\s]+)");
    private static final Pattern LABEL = Pattern.compile("^([.$][\\w$.]+):\\s*$");
    private static final Pattern INSN = Pattern.compile("^\\s*/\\*([0-9a-f]{4,})\\*/\\s+(.*?)\\s*;?\\s*$");

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

    /** Parses an nvdisasm {@code -c} listing. */
    public static SassListing parse(String listing) {
        Map<String, List<String[]>> raw = new LinkedHashMap<>();
        Map<String, Map<String, Long>> labels = new HashMap<>();
        String current = null;
        String pendingLabel = null;
        for (String line : listing.split("\n")) {
            Matcher sm = SECTION.matcher(line);
            if (sm.find()) {
                current = sm.group(1);
                raw.put(current, new ArrayList<>());
                labels.put(current, new HashMap<>());
                continue;
            }
            if (current == null) {
                continue;
            }
            Matcher lm = LABEL.matcher(line.trim());
            if (lm.matches()) {
                pendingLabel = lm.group(1);
                continue;
            }
            Matcher im = INSN.matcher(line);
            if (im.matches()) {
                long addr = Long.parseLong(im.group(1), 16);
                String text = im.group(2).replaceAll("\\s*;\\s*$", "").trim();
                if (pendingLabel != null) {
                    labels.get(current).put(pendingLabel, addr);
                    pendingLabel = null;
                }
                raw.get(current).add(new String[] {Long.toString(addr), text});
            }
        }
        Map<String, List<SassOp>> out = new LinkedHashMap<>();
        raw.forEach((fn, lines) -> {
            List<SassOp> ops = new ArrayList<>();
            for (String[] l : lines) {
                ops.add(SassParser.parse(Long.parseLong(l[0]), l[1], labels.get(fn)));
            }
            out.put(fn, List.copyOf(ops));
        });
        return new SassListing(out);
    }
}
