package org.jptxas.tables.latency;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import org.jptxas.tables.TableException;
import org.jptxas.tables.TableSource;

/**
 * Loads a latency table (a backend's {@code latency/sm80.json}, ...) and resolves its {@code extends} overlays into
 * one flat, validated {@link LatencyTableData}: a backend's table extends the shared family table
 * ({@code tables/latency/volta-family.json}) or another table of its own jar. Resolved tables are immutable; a
 * target description keeps its own.
 */
public final class LatencyTables {
    private LatencyTables() {}

    /**
     * The table at {@code path} in {@code source}, its {@code extends} chain resolved: a name is a table in the same
     * folder (a backend's tables extend those of its own jar), an absolute path ({@code /org/jptxas/tables/latency/
     * volta-family}) a shared family table.
     */
    public static LatencyTableData resolve(TableSource source, String path) {
        return resolve(source, source.path(path), new HashSet<>());
    }

    private static LatencyTableData resolve(TableSource source, String file, Set<String> visiting) {
        if (!visiting.add(file)) {
            throw new TableException(file, "extends", "cyclic 'extends' chain through " + file, null);
        }
        LatencyTableData own = source.load(file, LatencyTableData.class);
        if (!file.endsWith("/" + own.sm() + ".json")) {
            throw new TableException(file, "sm", "names itself '" + own.sm() + "'", null);
        }
        String parent = own.extendsTable();
        LatencyTableData merged = parent.isEmpty() ? own : overlay(resolve(source,
                parent.startsWith("/") ? parent + ".json" : file.substring(0, file.lastIndexOf('/') + 1) + parent + ".json",
                visiting), own);
        validate(file, merged);
        return merged;
    }

    /** The child's entries replace the parent's entries of the same name; new entries are appended. */
    static LatencyTableData overlay(LatencyTableData parent, LatencyTableData child) {
        return new LatencyTableData(child.sm(), child.extendsTable(), child.targets(),
                child.source().isEmpty() ? parent.source() : child.source(),
                child.scoreboards(), child.maxStall(), child.scoreboardSetup(), child.paddingStall(),
                merge(parent.pipes(), child.pipes(), LatencyTableData.Pipe::name),
                merge(parent.classes(), child.classes(), LatencyTableData.LatencyClassEntry::name),
                merge(parent.opcodes(), child.opcodes(), LatencyTableData.OpcodeRule::key),
                merge(parent.wideSplits(), child.wideSplits(), LatencyTableData.WideSplit::latencyClass));
    }

    private static <T> List<T> merge(List<T> parent, List<T> child, Function<T, String> key) {
        Map<String, T> byKey = new LinkedHashMap<>();
        parent.forEach(e -> byKey.put(key.apply(e), e));
        child.forEach(e -> byKey.put(key.apply(e), e));
        return new ArrayList<>(byKey.values());
    }

    /** Cross-references: every class names a known pipe and reader group, every rule a known class. */
    static void validate(String file, LatencyTableData t) {
        Set<String> pipes = new HashSet<>();
        t.pipes().forEach(p -> pipes.add(p.name()));
        Set<String> readers = new HashSet<>();
        t.classes().forEach(c -> readers.add(c.reader()));
        readers.add("*");
        readers.add("guard");
        readers.add("branch");
        readers.add("drain"); // the column read by classes that drain writes (CALL, BSYNC)
        Set<String> classes = new HashSet<>();
        for (int i = 0; i < t.classes().size(); i++) {
            LatencyTableData.LatencyClassEntry c = t.classes().get(i);
            classes.add(c.name());
            if (!pipes.contains(c.pipe())) {
                throw new TableException(file, "classes[" + i + "].pipe", "unknown pipe '" + c.pipe() + "'", null);
            }
            for (String p : c.alsoPipes()) {
                if (!pipes.contains(p)) {
                    throw new TableException(file, "classes[" + i + "].alsoPipes", "unknown pipe '" + p + "'", null);
                }
            }
            for (var perFile : c.latency().entrySet()) {
                for (String group : perFile.getValue().keySet()) {
                    // "min:<group>": the shortest distance ptxas itself uses for that group (the hazard checker's bound).
                    if (!readers.contains(group.startsWith("min:") ? group.substring(4) : group)) {
                        throw new TableException(file, "classes[" + i + "].latency." + perFile.getKey(),
                                "unknown reader group '" + group + "'", null);
                    }
                }
            }
            for (int sb : c.scoreboardOrder()) {
                if (sb < 0 || sb >= t.scoreboards()) {
                    throw new TableException(file, "classes[" + i + "].scoreboardOrder", "scoreboard " + sb + " does not exist", null);
                }
            }
        }
        for (int i = 0; i < t.wideSplits().size(); i++) {
            if (!classes.contains(t.wideSplits().get(i).latencyClass())) {
                throw new TableException(file, "wideSplits[" + i + "].latencyClass",
                        "unknown class '" + t.wideSplits().get(i).latencyClass() + "'", null);
            }
        }
        for (int i = 0; i < t.opcodes().size(); i++) {
            if (!classes.contains(t.opcodes().get(i).latencyClass())) {
                throw new TableException(file, "opcodes[" + i + "].latencyClass",
                        "unknown class '" + t.opcodes().get(i).latencyClass() + "'", null);
            }
        }
    }
}
