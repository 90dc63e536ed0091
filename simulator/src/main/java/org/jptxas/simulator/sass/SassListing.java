package org.jptxas.simulator.sass;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The instruction text of every function of a cubin, by address. Produced from a disassembler listing in nvdisasm's
 * syntax: NVIDIA's nvdisasm (the oracle, while jptxas's own decoder grows its tables) or jptxas's SassPrinter, which
 * prints the same syntax.
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

    /** Runs {@code nvdisasm -c} on a cubin file. */
    public static SassListing fromNvdisasm(Path nvdisasm, Path cubin) throws IOException {
        Process p = new ProcessBuilder(nvdisasm.toString(), "-c", cubin.toString()).redirectErrorStream(true).start();
        p.getOutputStream().close();
        String text;
        try (InputStream in = p.getInputStream()) {
            text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        try {
            if (!p.waitFor(120, TimeUnit.SECONDS) || p.exitValue() != 0) {
                p.destroyForcibly();
                throw new IOException("nvdisasm failed on " + cubin + ": " + text.lines().findFirst().orElse(""));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        }
        return parse(text);
    }
}
