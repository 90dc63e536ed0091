package org.jptxas.scheduler.sass;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads the text of {@code nvdisasm -hex} (sm_70+) into instructions grouped by function. This is the stand-in
 * decoder used until jptxas's own SASS decoder lands: the instruction text gives operands, the hex gives the
 * control bits.
 */
public final class NvdisasmListing {
    private static final Pattern SECTION = Pattern.compile("^\\s*\\.section\\s+\\.text\\.([^,\\s]+)");
    private static final Pattern INSTR = Pattern.compile("/\\*([0-9a-f]{4,})\\*/\\s+(.*?)\\s*;\\s*/\\* 0x([0-9a-f]{16}) \\*/");
    private static final Pattern HIGH = Pattern.compile("^\\s+/\\* 0x([0-9a-f]{16}) \\*/\\s*$");
    private static final Pattern LABEL = Pattern.compile("^\\s*(\\.L_[\\w]+|[A-Za-z_$][\\w$]*):\\s*$");

    private NvdisasmListing() {}

    /** Instructions per function, in file order. */
    public static Map<String, List<SassLine>> parse(String listing) {
        Map<String, List<SassLine>> out = new LinkedHashMap<>();
        List<SassLine> current = null;
        String function = null;
        String label = null;
        String pendingText = null;
        int pendingAddr = 0;
        long pendingLo = 0;
        for (String line : listing.split("\n")) {
            Matcher m = SECTION.matcher(line);
            if (m.find()) {
                function = m.group(1);
                current = out.computeIfAbsent(function, k -> new ArrayList<>());
                label = null;
                continue;
            }
            if (current == null) {
                continue;
            }
            m = INSTR.matcher(line);
            if (m.find()) {
                pendingAddr = Integer.parseInt(m.group(1), 16);
                pendingText = m.group(2).strip();
                pendingLo = Long.parseUnsignedLong(m.group(3), 16);
                continue;
            }
            m = HIGH.matcher(line);
            if (m.find() && pendingText != null) {
                current.add(new SassLine(function, pendingAddr, pendingText, pendingLo, Long.parseUnsignedLong(m.group(1), 16), label));
                pendingText = null;
                label = null;
                continue;
            }
            Matcher lm = LABEL.matcher(line);
            if (lm.find() && line.strip().startsWith(".L_")) {
                label = lm.group(1);
            }
        }
        return out;
    }
}
