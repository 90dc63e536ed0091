package org.jptxas.cli;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jptxas.cubin.Cubin;
import org.jptxas.cubin.Section;
import org.jptxas.cubin.SectionType;
import org.jptxas.cubin.tables.CubinTables;
import org.jptxas.sass.SassListing;

/**
 * The indirect branches of a cubin as nvdisasm 12.5 names them: each {@code EIATTR_INDIRECT_BRANCH_TARGETS} record of
 * a function's {@code .nv.info} section holds entries {@code [branch address u32][u16][u16][count u32][target u32 ...]}
 * (addresses in the function's code). nvdisasm gives the branch and every target a {@code .L_x_N} label, numbered
 * after all branch labels of the file, in {@code .nv.info} section order and entry order; every address takes a
 * number, but one that already has a label (a branch target, an earlier entry) keeps it, so those numbers go
 * unused. The branch prints {@code (*"BRANCH_TARGETS a,b,c"*)} with its distinct targets, and the record prints
 * the labels as {@code .word .L_x_N@srel}.
 */
final class NvdisasmJumpTables {
    private static final int CODE = CubinTables.eiattrCode("INDIRECT_BRANCH_TARGETS");

    /** One entry of the attribute: the indirect branch's address, two half-words nvdisasm prints as numbers, targets. */
    record Entry(long branch, int first, int second, List<Long> targets) {}

    private final Cubin cubin;
    /** Text section index -> its entries, in the order of the {@code .nv.info} sections and of the records. */
    private final Map<Integer, List<Entry>> entries = new HashMap<>();
    /** Text section index -> address -> label, once {@link #number} ran. */
    private final Map<Integer, Map<Long, String>> labels = new HashMap<>();

    NvdisasmJumpTables(Cubin cubin) {
        this.cubin = cubin;
        List<Section> sections = cubin.sections();
        for (Section s : sections) {
            if (s.type() != SectionType.CUDA_INFO || s.info() <= 0 || s.info() >= sections.size()
                    || !sections.get(s.info()).isText()) {
                continue;
            }
            List<Entry> found = parse(s.data());
            if (!found.isEmpty()) {
                entries.computeIfAbsent(s.info(), k -> new ArrayList<>()).addAll(found);
            }
        }
    }

    /** The entries of one attribute payload (a truncated entry ends the list). */
    static List<Entry> entries(byte[] b, int from, int end) {
        List<Entry> out = new ArrayList<>();
        int at = from;
        while (at + 12 <= end) {
            long count = word(b, at + 8) & 0xffffffffL;
            if (at + 12 + 4 * count > end) {
                break;
            }
            List<Long> targets = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                targets.add(word(b, at + 12 + 4 * i) & 0xffffffffL);
            }
            out.add(new Entry(word(b, at) & 0xffffffffL, u16(b, at + 4), u16(b, at + 6), List.copyOf(targets)));
            at += 12 + 4 * (int) count;
        }
        return out;
    }

    /** Every entry of an {@code .nv.info} section's indirect-branch records. */
    private static List<Entry> parse(byte[] b) {
        List<Entry> out = new ArrayList<>();
        int at = 0;
        while (at + 4 <= b.length) {
            int format = b[at] & 0xff;
            int size = u16(b, at + 2);
            if (format != 4) {
                at += 4;
                continue;
            }
            int end = Math.min(b.length, at + 4 + size);
            if ((b[at + 1] & 0xff) == CODE) {
                out.addAll(entries(b, at + 4, end));
            }
            at = end;
        }
        return out;
    }

    /**
     * Names the branches and targets from number {@code first} on, reusing the labels the code already has
     * ({@code known}: text section index -> address -> label). Returns the next free number.
     */
    int number(int first, Map<Integer, Map<Long, String>> known) {
        int next = first;
        for (Section s : cubin.sections()) {
            if (s.type() != SectionType.CUDA_INFO || !entries.containsKey(s.info())) {
                continue;
            }
            int text = s.info();
            Map<Long, String> mine = labels.computeIfAbsent(text, k -> new HashMap<>());
            Map<Long, String> have = known.getOrDefault(text, Map.of());
            for (Entry e : parse(s.data())) {
                List<Long> addresses = new ArrayList<>();
                addresses.add(e.branch());
                addresses.addAll(e.targets());
                for (long a : addresses) {
                    String label = ".L_x_" + next++;
                    mine.putIfAbsent(a, have.getOrDefault(a, label));
                }
            }
        }
        return next;
    }

    /** The label nvdisasm gives code address {@code address} of text section {@code text} (after {@link #number}). */
    Optional<String> labelAt(int text, long address) {
        return Optional.ofNullable(labels.getOrDefault(text, Map.of()).get(address));
    }

    /** The jump-table labels and branch annotations of text section {@code s} (after {@link #number}). */
    SassListing.Annotations of(Section s) {
        int text = cubin.sectionIndex(s.name());
        List<Entry> list = entries.getOrDefault(text, List.of());
        if (list.isEmpty()) {
            return SassListing.Annotations.NONE;
        }
        Map<Long, String> mine = labels.getOrDefault(text, Map.of());
        Map<Long, String> targets = new HashMap<>();
        for (Entry e : list) {
            LinkedHashSet<String> names = new LinkedHashSet<>();
            for (long t : e.targets()) {
                names.add(labelAt(text, t).orElse(String.format("0x%x", t)));
            }
            targets.putIfAbsent(e.branch(), "BRANCH_TARGETS " + String.join(",", names));
        }
        return new SassListing.Annotations(Map.copyOf(mine), Map.copyOf(targets));
    }

    /** Whether the file has any indirect branch. */
    boolean any() {
        return !entries.isEmpty();
    }

    private static int word(byte[] b, int at) {
        return (b[at] & 0xff) | (b[at + 1] & 0xff) << 8 | (b[at + 2] & 0xff) << 16 | (b[at + 3] & 0xff) << 24;
    }

    private static int u16(byte[] b, int at) {
        return (b[at] & 0xff) | (b[at + 1] & 0xff) << 8;
    }
}
