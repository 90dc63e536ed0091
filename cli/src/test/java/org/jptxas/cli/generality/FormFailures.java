package org.jptxas.cli.generality;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.jptxas.cli.generality.FormSuite.Kind;
import org.jptxas.cli.generality.FormSuite.Outcome;
import org.jptxas.cli.generality.FormSuite.Report;
import org.jptxas.testing.RepoRoot;
import org.jptxas.testing.gate.Gate;

/**
 * The instruction-form suite's known failures: {@code form-failures.tsv} beside this class lists, per SM, each kind
 * of failure with its signature (the compile error, the emulator's fault, the instruction whose result differs; with
 * register numbers, addresses and lines left out) and one case that shows it. The suite's gate is exact: a failure
 * whose signature is not listed fails, and so does a listed one that no longer occurs (record with
 * {@code -Djptxas.forms.update=true}, which rewrites the file in the source tree). The counts of forms that compile
 * and agree are figures, so a new failure under a known signature fails too.
 */
final class FormFailures {
    private FormFailures() {}

    static final String RESOURCE = "form-failures.tsv";
    static final Path SOURCE = Path.of("cli", "src", "test", "resources", "org", "jptxas", "cli", "generality",
            RESOURCE);

    /** A failure's key in the list: SM, kind and signature. */
    static String key(String sm, Outcome o) {
        return sm + " | " + o.kind().name() + " | " + signature(o);
    }

    /** What identifies a failure across cases: the error or fault without numbers, or the instruction that differs. */
    static String signature(Outcome o) {
        Kind k = o.kind();
        String d = o.detail() == null ? "" : o.detail();
        return switch (k) {
            case JPTXAS_DIFFERS, PTXAS_DIFFERS, MODEL_DIFFERS -> o.c().instruction()
                    + (o.c().predicated() ? " (guarded)" : "");
            case JPTXAS_FAULT, EMULATOR_CRASH -> "emulator: " + fault(d, "emulator");
            case PTXAS_FAULT -> "emulator: " + fault(d, "emulator");
            case PTXAS_REJECTS -> normalize(d.replaceFirst("^ptxas [^,]*, line \\d+; ", ""));
            case JPTXAS_HAZARD -> normalize(d.replaceFirst("^[^:]*: ", ""));
            case FLAKY -> o.c().key();
            default -> normalize(d.replaceAll(" — .*", ""));
        };
    }

    private static String fault(String detail, String leg) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile(leg + " (?:faulted|failed) \\((.*)").matcher(detail);
        String s = m.find() ? m.group(1) : detail;
        s = s.replaceAll(", block \\(.*", "").replaceAll("\\); ptxas.*", "").replaceAll("\\)$", "");
        return normalize(s);
    }

    static String normalize(String s) {
        String n = s.replaceAll("\\(PTX line \\d+\\)", "")
                .replaceAll("line \\d+", "line N")
                .replaceAll("\\bU?R\\d+\\b", "R")
                .replaceAll("\\bU?P\\d\\b", "P")
                .replaceAll("0x[0-9a-fA-F]+", "X")
                .replaceAll("'-?\\d+'", "'N'")
                .replaceAll("thread \\(\\d+,\\d+,\\d+\\)", "thread")
                .replaceAll("\\s+", " ")
                .strip();
        return n.length() > 200 ? n.substring(0, 200) : n;
    }

    /** The listed failures: key to the case that showed it. */
    static Map<String, String> known() {
        try (InputStream in = FormFailures.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                return Map.of();
            }
            return parse(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static Map<String, String> parse(String text) {
        Map<String, String> m = new LinkedHashMap<>();
        for (String line : text.split("\n")) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            String[] c = line.split("\t", -1);
            if (c.length != 3) {
                throw new IllegalStateException(RESOURCE + ": expected key, cases and example: " + line);
            }
            m.put(c[0], c[1] + " cases, e.g. " + c[2]);
        }
        return m;
    }

    /**
     * The gate over the reports: every agreeing case passes; every failure is excused only by its listed key; a
     * crash of our code (jptxas, the interpreter, the emulator) always fails, by name.
     */
    static Gate gate(List<Report> reports, Map<String, String> known) {
        Gate gate = Gate.withKnown("instruction forms three ways", known);
        for (Report r : reports) {
            for (Outcome o : r.outcomes()) {
                if (o.kind() == null) {
                    gate.pass();
                } else if (o.kind() == Kind.CRASH || o.kind() == Kind.INTERPRETER_CRASH
                        || o.kind() == Kind.EMULATOR_CRASH) {
                    gate.crash(r.sm() + " " + o.c().key(), new AssertionError(o.kind().what + ": " + o.detail()));
                } else {
                    gate.differ(key(r.sm(), o), o.c().key() + ": " + o.detail());
                }
            }
        }
        return gate;
    }

    /** The file's text for these reports (update mode). */
    static String render(List<Report> reports) {
        Map<String, List<Outcome>> byKey = new TreeMap<>();
        for (Report r : reports) {
            for (Outcome o : r.failures()) {
                if (o.kind() != Kind.CRASH && o.kind() != Kind.INTERPRETER_CRASH && o.kind() != Kind.EMULATOR_CRASH) {
                    byKey.computeIfAbsent(key(r.sm(), o), k -> new ArrayList<>()).add(o);
                }
            }
        }
        StringBuilder sb = new StringBuilder();
        sb.append("# Known failures of the instruction-form suite (InstructionFormSuiteTest), per SM: key (SM | kind |")
                .append(" signature), cases, one case.\n# Rewritten by -Djptxas.forms.update=true; the gate is exact")
                .append(" (an unlisted failure fails, a listed one that no longer occurs fails).\n");
        byKey.forEach((k, l) -> sb.append(k).append('\t').append(l.size()).append('\t')
                .append(l.get(0).c().key()).append('\n'));
        return sb.toString();
    }

    static void write(List<Report> reports) {
        Path file = RepoRoot.find().orElseThrow(() -> new IllegalStateException("repository root not found"))
                .resolve(SOURCE);
        try {
            Files.createDirectories(file.getParent());
            Files.writeString(file, render(reports), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
