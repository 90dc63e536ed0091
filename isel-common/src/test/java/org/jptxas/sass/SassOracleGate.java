package org.jptxas.sass;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.jptxas.cubin.CorpusCubin;
import org.jptxas.cubin.Cubin;
import org.jptxas.cubin.Section;
import org.jptxas.isel.gates.GateRuns;
import org.jptxas.sass.oracle.NvdisasmListing;
import org.jptxas.sass.oracle.OracleListings;
import org.jptxas.sass.probe.FormLearner;
import org.jptxas.sass.probe.Sample;
import org.jptxas.testing.OracleCubins;
import org.jptxas.testing.gate.Gate;
import org.jptxas.spi.TestTargets;

/**
 * The core of the SASS gates ({@link SassDifferentialTest} on the output the tables were learned from,
 * {@link SassHeldOutTest} on output they were not): one oracle listing (nvdisasm 12.5 of a ptxas cubin) checked
 * instruction by instruction against the decoder, and optionally the assembler. Faults are planted through
 * {@link Codec}.
 */
final class SassOracleGate {
    private SassOracleGate() {}

    /** The code under test: decoder and assembler of one SM. */
    interface Codec {
        SassInstruction decode(long lo, long hi);

        long[] assemble(String text, Control control, long address, LabelResolver labels);

        static Codec of(String sm) {
            SassIsa isa = TestTargets.of(sm).isa();
            SassAssembler asm = new SassAssembler(isa);
            return new Codec() {
                @Override
                public SassInstruction decode(long lo, long hi) {
                    return isa.decode(lo, hi);
                }

                @Override
                public long[] assemble(String text, Control control, long address, LabelResolver labels) {
                    // nvdisasm's text of ptxas's words: a listing (decode-only forms and reuse flags included)
                    return asm.assembleListing(text, control, address, labels);
                }
            };
        }
    }

    /** One compiled cubin's code sections and nvdisasm's listing of it. */
    record Listed(String key, Map<String, byte[]> text, NvdisasmListing listing) {}

    /** An oracle job: a key, how to get ptxas's cubin, and the ptxas options for messages. */
    record Job(String key, Path ptx, String arch, java.util.function.Supplier<OracleCubins.Compiled> compile) {}

    /**
     * The job's cubin and listing; null when ptxas refuses the combination ({@link CorpusCubin#REFUSALS}, or
     * {@code refusals} of this ptxas), and null after an oracle failure (ptxas or nvdisasm) is reported to {@code gate}.
     */
    static Listed listed(Job job, Gate gate, Function<Path, NvdisasmListing> nvdisasm, List<String> refusals) {
        OracleCubins.Compiled c = job.compile().get();
        if (!c.ok()) {
            if (CorpusCubin.refused(c.diagnostics())
                    || c.diagnostics().lines().anyMatch(l -> refusals.stream().anyMatch(l::contains))) {
                return null;
            }
            gate.oracleFailed(job.key(), "ptxas: " + c.diagnostics().lines().findFirst().orElse(""));
            return null;
        }
        Path cubin = c.cubin().orElseThrow();
        NvdisasmListing listing;
        try {
            listing = nvdisasm.apply(cubin);
        } catch (RuntimeException e) {
            gate.oracleFailed(job.key(), "nvdisasm: " + e.getMessage());
            return null;
        }
        try {
            Map<String, byte[]> text = new LinkedHashMap<>();
            for (Section s : Cubin.read(Files.readAllBytes(cubin)).textSections()) {
                text.put(s.name(), s.data());
            }
            return new Listed(job.key(), text, listing);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static Function<Path, NvdisasmListing> NVDISASM = OracleListings::cubin;

    /**
     * The tally of one SM's run beyond the gate's: instructions, exact text and bits, UNKNOWN (by opcode, and by word:
     * {@code "hi..lo hex<TAB>nvdisasm's text"}), exceptions.
     */
    record Counts(AtomicInteger instructions, AtomicInteger exactText, AtomicInteger exactBits, AtomicInteger unknown,
                  AtomicInteger relocated, AtomicInteger hidden, AtomicInteger cubins,
                  Map<String, Integer> unknownByOpcode, Map<String, Integer> unknownWords,
                  Map<String, Integer> annotations) {
        Counts() {
            this(new AtomicInteger(), new AtomicInteger(), new AtomicInteger(), new AtomicInteger(), new AtomicInteger(),
                    new AtomicInteger(), new AtomicInteger(), new ConcurrentHashMap<>(), new ConcurrentHashMap<>(),
                    new ConcurrentHashMap<>());
        }
    }

    /** How an UNKNOWN decode counts: a difference (learned output must all decode) or a tally (held-out output). */
    enum UnknownIs { DIFFERENCE, COUNTED }

    /**
     * Checks every instruction of every listing: its bytes equal the cubin's, it decodes to nvdisasm's text, and (with
     * {@code assemble}) the text assembles back to the same bits. Text nvdisasm takes from relocations is the known
     * exception {@code "relocation-dependent text: OP"}; bits the text does not show {@code "bits nvdisasm does not
     * print: OP"}: both go through {@code gate}'s known list, so a new opcode in either fails.
     */
    static Counts check(List<Job> jobs, Gate gate, Function<Path, NvdisasmListing> nvdisasm, List<String> refusals,
                        Codec codec, boolean assemble, UnknownIs unknownIs) {
        Counts n = new Counts();
        GateRuns.each(jobs, Job::key, gate, job -> {
            Listed l = listed(job, gate, nvdisasm, refusals);
            if (l != null) {
                n.cubins().incrementAndGet();
                check(l, gate, codec, assemble, unknownIs, n);
            }
        });
        return n;
    }

    static void check(Listed l, Gate gate, Codec codec, boolean assemble, UnknownIs unknownIs, Counts n) {
        for (NvdisasmListing.Section sec : l.listing().sections()) {
            byte[] code = l.text().get(sec.name());
            if (code == null) {
                gate.differ(l.key() + " " + sec.name(), "nvdisasm lists a section the cubin does not have");
                continue;
            }
            for (NvdisasmListing.Line line : sec.lines()) {
                String where = l.key() + " " + sec.name() + "+0x" + Long.toHexString(line.address());
                try {
                    checkLine(sec, line, code, where, gate, codec, assemble, unknownIs, n);
                } catch (RuntimeException e) {
                    gate.crash(where + " '" + line.text() + "'", e);
                }
            }
        }
    }

    private static void checkLine(NvdisasmListing.Section sec, NvdisasmListing.Line line, byte[] code, String where,
                                  Gate gate, Codec codec, boolean assemble, UnknownIs unknownIs, Counts n) {
        n.instructions().incrementAndGet();
        long lo = SassIsa.le64(code, (int) line.address());
        long hi = SassIsa.le64(code, (int) line.address() + 8);
        if (lo != line.lo() || hi != line.hi()) {
            gate.differ(where, "cubin bytes " + SassIsa.hex128(lo, hi) + ", nvdisasm " + SassIsa.hex128(line.lo(), line.hi()));
            return;
        }
        String op = SassDifferentialTest.opcodeOf(line.text());
        if (FormLearner.needsRelocation(new Sample(lo, hi, line.address(), line.text(), sec.labels()))) {
            n.relocated().incrementAndGet();
            gate.differ("relocation-dependent text: " + op, line.text());
            return;
        }
        if (!line.annotation().isEmpty()) {
            n.annotations().merge(op, 1, Integer::sum); // printed without nvdisasm's .nv.info annotation: text checked
        }
        SassInstruction inst = codec.decode(lo, hi);
        String ours = SassPrinter.text(inst, line.address(), a -> FormLearner.labelAt(sec.labels(), a));
        if (!ours.equals(line.text())) {
            if (inst instanceof SassInstruction.Unknown && unknownIs == UnknownIs.COUNTED) {
                n.unknown().incrementAndGet();
                n.unknownByOpcode().merge(op, 1, Integer::sum);
                n.unknownWords().merge(SassIsa.hex128(lo, hi) + "\t" + line.text(), 1, Integer::sum);
                gate.pass(); // compared: an explicit UNKNOWN is no wrong answer
            } else {
                gate.differ(where, "decode: want '" + line.text() + "' got '" + ours + "' " + SassIsa.hex128(lo, hi));
            }
            return;
        }
        n.exactText().incrementAndGet();
        if (!assemble) {
            gate.pass();
            return;
        }
        long[] words;
        try {
            words = codec.assemble(line.text(), inst.control(), line.address(), name -> {
                Long a = sec.labels().get(name);
                if (a == null) {
                    throw new IllegalArgumentException("unknown label " + name);
                }
                return a;
            });
        } catch (SassAssembler.AssemblyException e) {
            gate.differ(where, "assemble '" + line.text() + "': " + e.getMessage());
            return;
        }
        if (words[0] == lo && words[1] == hi) {
            n.exactBits().incrementAndGet();
            gate.pass();
        } else if (SassPrinter.text(codec.decode(words[0], words[1]), line.address(),
                a -> FormLearner.labelAt(sec.labels(), a)).equals(line.text())) {
            // Both words print the same text: bits nvdisasm does not show cannot come back from text.
            n.hidden().incrementAndGet();
            gate.differ("bits nvdisasm does not print: " + op, line.text() + ": oracle " + SassIsa.hex128(lo, hi)
                    + ", ours " + SassIsa.hex128(words[0], words[1]));
        } else {
            gate.differ(where, "assemble '" + line.text() + "': want " + SassIsa.hex128(lo, hi) + " got "
                    + SassIsa.hex128(words[0], words[1]));
        }
    }
}
