package org.jptxas.testing.gate;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import org.opentest4j.AssertionFailedError;

/**
 * The tally of a corpus or differential gate, and its verdict. Items are compared one by one; each ends as a pass, a
 * difference, a crash of our code, or a failure of the oracle on the item. {@link #verify(int)} fails the gate when
 * fewer than the minimum were compared (an empty corpus or a skipped oracle must not pass), when any item crashed, when
 * a difference is not one of the listed known exceptions, and when a known exception no longer occurs (stale).
 * Thread-safe: items may be reported from parallel workers.
 */
public final class Gate {
    private final String name;
    private final Map<String, String> known;
    private final AtomicInteger compared = new AtomicInteger();
    private final ConcurrentLinkedQueue<String> differences = new ConcurrentLinkedQueue<>();
    private final ConcurrentLinkedQueue<String> crashes = new ConcurrentLinkedQueue<>();
    private final ConcurrentLinkedQueue<String> oracleFailures = new ConcurrentLinkedQueue<>();
    private final Map<String, Integer> excused = new ConcurrentHashMap<>();

    private Gate(String name, Map<String, String> known) {
        this.name = name;
        this.known = Map.copyOf(known);
    }

    /** A gate with no known exceptions. */
    public static Gate named(String name) {
        return new Gate(name, Map.of());
    }

    /**
     * A gate whose listed differences are excused: {@code known} maps an item key to the reason it differs. The list is
     * exact: every entry must occur in the run, or the gate fails it as stale.
     */
    public static Gate withKnown(String name, Map<String, String> known) {
        return new Gate(name, known);
    }

    public String name() {
        return name;
    }

    /** One item compared and equal. */
    public void pass() {
        compared.incrementAndGet();
    }

    /** Several items compared and equal. */
    public void pass(int items) {
        compared.addAndGet(items);
    }

    /**
     * One item compared and different. Excused when {@code key} is a known exception (the difference is counted against
     * that entry), a failure otherwise.
     */
    public void differ(String key, String detail) {
        compared.incrementAndGet();
        if (known.containsKey(key)) {
            excused.merge(key, 1, Integer::sum);
        } else {
            differences.add(key + ": " + detail);
        }
    }

    /** Our code threw on an item: always a failure, reported by name. */
    public void crash(String key, Throwable t) {
        StringWriter trace = new StringWriter();
        t.printStackTrace(new PrintWriter(trace));
        String[] lines = trace.toString().split("\n");
        StringBuilder head = new StringBuilder(key).append(": ").append(t);
        for (int i = 1; i < Math.min(lines.length, 6); i++) {
            head.append("\n    ").append(lines[i].strip());
        }
        crashes.add(head.toString());
    }

    /**
     * The oracle (ptxas, nvdisasm, cuobjdump, nvlink) failed on an item it is expected to handle: a failure too, since
     * dropping such items would shrink the comparison silently.
     */
    public void oracleFailed(String key, String detail) {
        oracleFailures.add(key + ": " + detail.strip());
    }

    public int compared() {
        return compared.get();
    }

    public List<String> differences() {
        return sorted(differences);
    }

    public List<String> crashes() {
        return sorted(crashes);
    }

    public List<String> oracleFailures() {
        return sorted(oracleFailures);
    }

    /** Known exceptions that did not occur in this run. */
    public List<String> stale() {
        List<String> out = new ArrayList<>();
        for (String k : new TreeMap<>(known).keySet()) {
            if (!excused.containsKey(k)) {
                out.add(k + " (" + known.get(k) + ")");
            }
        }
        return out;
    }

    /** Whether the gate would pass with {@code minCompared}. */
    public boolean passes(int minCompared) {
        return problems(minCompared).isEmpty();
    }

    /** Fails with every problem found, or returns. */
    public void verify(int minCompared) {
        List<String> problems = problems(minCompared);
        if (!problems.isEmpty()) {
            throw new AssertionFailedError(name + " failed:\n  " + String.join("\n  ", problems));
        }
    }

    private List<String> problems(int minCompared) {
        if (minCompared < 1) {
            throw new IllegalArgumentException("a gate must compare something: minimum " + minCompared);
        }
        List<String> p = new ArrayList<>();
        if (compared.get() < minCompared) {
            p.add("compared " + compared.get() + " items, fewer than the minimum " + minCompared);
        }
        list(p, "crashes of our code", crashes());
        list(p, "oracle failures", oracleFailures());
        list(p, "differences", differences());
        list(p, "known exceptions that no longer occur (remove them)", stale());
        return p;
    }

    private static void list(List<String> into, String what, List<String> items) {
        if (!items.isEmpty()) {
            StringBuilder sb = new StringBuilder().append(items.size()).append(' ').append(what).append(':');
            items.stream().limit(20).forEach(i -> sb.append("\n    ").append(i.replace("\n", "\n    ")));
            if (items.size() > 20) {
                sb.append("\n    ...");
            }
            into.add(sb.toString());
        }
    }

    /** One line of counts, for the test's report. */
    public String summary() {
        return String.format("%s: %d compared, %d differences, %d excused (%s), %d crashes, %d oracle failures", name,
                compared.get(), differences.size(), excused.values().stream().mapToInt(Integer::intValue).sum(),
                new TreeMap<>(excused), crashes.size(), oracleFailures.size());
    }

    private static List<String> sorted(ConcurrentLinkedQueue<String> q) {
        List<String> l = new ArrayList<>(q);
        l.sort(null);
        return l;
    }

    /** The keys of {@code known}, for tests that look them up before comparing. */
    public Set<String> knownKeys() {
        return known.keySet();
    }
}
