package org.jptxas.sass;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.jptxas.sass.probe.OracleSamples;
import org.jptxas.testing.gate.Figures;
import org.jptxas.testing.gate.Gate;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Consistency of the tables with the output they were learned from: for every corpus PTX file ptxas 13 accepts (and
 * every probe and suite kernel), for each SM its .target allows, every instruction of every .text section decodes to
 * nvdisasm 12.5's text (whitespace-normalized), and assembling that text with the instruction's control bits gives
 * back the identical 128 bits. The instruction words come from the cubin (read with {@link Cubin}) and are checked
 * against nvdisasm's encoding comments. These are the very jobs the tables were derived from, so this is no score of
 * the tables: {@link SassHeldOutTest} scores them on output they were not learned from.
 *
 * <p>Exceptions, exact per SM and opcode ({@link #KNOWN}); their counts are figures: text that nvdisasm derives from
 * the cubin's relocations rather than the instruction bits ({@code 32@hi(sym)}, {@code `(callee)} of
 * {@code CALL.ABS.NOINC}), where the decoder prints the bits' own value; and cache-policy bits nvdisasm does not
 * print, which cannot come back from the text.
 */
@Tag("slow")
class SassDifferentialTest {
    static final String RELOCATED = "nvdisasm prints the relocation's symbol (32@hi(sym), `(callee)) where the bits hold"
            + " the unrelocated value";
    static final String HIDDEN = "an operand nvdisasm does not print (cache-policy register/bits): the text cannot"
            + " give them back";

    /** {@code "sm_XX kind: OPCODE"} → reason, from rows {@code sm, kind, opcodes...}. */
    static final Map<String, String> KNOWN = known(List.of(
            "sm_75|relocation-dependent text|CALL LDS MOV STS UMOV",
            "sm_80|relocation-dependent text|CALL LDS MOV STS UMOV",
            "sm_80|bits nvdisasm does not print|ATOM ATOMG LD LDG LDGSTS RED ST STG",
            "sm_86|relocation-dependent text|CALL LDS MOV STS UMOV",
            "sm_86|bits nvdisasm does not print|ATOM ATOMG LD LDG LDGSTS RED ST STG",
            "sm_89|relocation-dependent text|CALL LDS MOV STS UMOV",
            "sm_89|bits nvdisasm does not print|ATOM ATOMG LD LDG LDGSTS RED ST STG",
            "sm_90|relocation-dependent text|CALL MOV ULDC UMOV"));

    private static Map<String, String> known(List<String> rows) {
        Map<String, String> out = new TreeMap<>();
        for (String row : rows) {
            String[] c = row.split("\\|");
            String reason = c[1].startsWith("relocation") ? RELOCATED : HIDDEN;
            for (String op : c[2].split(" ")) {
                out.put(c[0] + " " + c[1] + ": " + op, reason);
            }
        }
        return out;
    }

    /** The known exceptions of {@code sm}, keyed as the gate reports them. */
    static Map<String, String> knownFor(String sm) {
        Map<String, String> out = new TreeMap<>();
        KNOWN.forEach((k, v) -> {
            if (k.startsWith(sm + " ")) {
                out.put(k.substring(sm.length() + 1), v);
            }
        });
        return out;
    }

    /** The oracle jobs of {@code sm}: corpus, probe and suite kernels, compiled by ptxas 13 -O3. */
    static List<SassOracleGate.Job> jobs(String sm) {
        List<OracleSamples.Job> all = new ArrayList<>(OracleSamples.corpusJobs());
        all.addAll(OracleSamples.kernelJobs());
        List<SassOracleGate.Job> jobs = new ArrayList<>();
        for (OracleSamples.Job j : all) {
            if (j.sm().equals(sm)) {
                jobs.add(new SassOracleGate.Job(j.ptx().getFileName() + " " + j.arch() + (j.relocatable() ? " -c" : ""),
                        j.ptx(), j.arch(), () -> OracleSamples.compile(j)));
            }
        }
        return jobs;
    }

    @ParameterizedTest
    @ValueSource(strings = {"sm_75", "sm_80", "sm_86", "sm_89", "sm_90"})
    void decoderAndAssemblerMatchNvdisasm(String sm) {
        List<SassOracleGate.Job> jobs = jobs(sm);
        Gate gate = Gate.withKnown("SASS differential " + sm + " (learned output)", knownFor(sm));
        SassOracleGate.Counts n = SassOracleGate.check(jobs, gate, SassOracleGate.NVDISASM, List.of(),
                SassOracleGate.Codec.of(sm), true, SassOracleGate.UnknownIs.DIFFERENCE);
        System.out.printf("%s: %d of %d jobs compiled and listed, %d instructions, %d exact text, %d exact bits;"
                        + " %d relocation-dependent text, %d with bits the text does not show; annotations %s%n",
                sm, n.cubins().get(), jobs.size(), n.instructions().get(), n.exactText().get(), n.exactBits().get(),
                n.relocated().get(), n.hidden().get(), new TreeMap<>(n.annotations()));
        System.out.println(gate.summary());
        exceptionKinds(gate).forEach((k, v) -> System.out.println("  exception " + k + " x" + v));
        gate.differences().stream().filter(d -> !isException(d)).limit(40).forEach(d -> System.out.println("  " + d));
        gate.verify(jobs.size());
        Figures.check("sass.learned.instructions." + sm, n.instructions().get());
        Figures.check("sass.learned.relocated." + sm, n.relocated().get());
        Figures.check("sass.learned.hiddenbits." + sm, n.hidden().get());
    }

    private static boolean isException(String difference) {
        return difference.startsWith("relocation-dependent text: ") || difference.startsWith("bits nvdisasm does not print: ");
    }

    /** Unlisted exceptions by kind and opcode, with their counts. */
    static Map<String, Integer> exceptionKinds(Gate gate) {
        Map<String, Integer> out = new TreeMap<>();
        for (String d : gate.differences()) {
            if (isException(d)) {
                out.merge(d.substring(0, d.indexOf(": ", d.indexOf(": ") + 2)), 1, Integer::sum);
            }
        }
        return out;
    }

    /** The opcode without modifiers or guard: {@code @!P0 IMAD.WIDE.U32 ...} → {@code IMAD}. */
    static String opcodeOf(String text) {
        String t = text.startsWith("@") ? text.substring(text.indexOf(' ') + 1) : text;
        int sp = t.indexOf(' ');
        String m = sp < 0 ? t : t.substring(0, sp);
        int dot = m.indexOf('.');
        return dot < 0 ? m : m.substring(0, dot);
    }
}
