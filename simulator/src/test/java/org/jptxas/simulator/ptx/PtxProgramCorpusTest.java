package org.jptxas.simulator.ptx;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.jptxas.testing.Corpus;
import org.jptxas.testing.gate.Figures;
import org.jptxas.testing.gate.Gate;
import org.junit.jupiter.api.Test;

/**
 * Every PTX file of the shared corpus that ptxas accepts loads into the interpreter without an internal error:
 * either it compiles (instructions the interpreter lacks become run-time "unimplemented" stops) or it is refused with
 * a message naming the file. How many load is a figure, so a refusal that replaces a load is seen.
 */
class PtxProgramCorpusTest {
    /** A corpus file's name and text. */
    record Source(String name, String text) {}

    /** Loads one program; a {@link ProgramException} is a refusal by name. */
    interface Loader {
        void load(Source s) throws ProgramException;
    }

    /** The gate and how many files loaded (the rest were refused by name). */
    record Result(Gate gate, int loaded) {}

    /**
     * The gate's core: every file is compared; a refusal whose message names the file passes (refusing is allowed), one
     * that does not is a difference, and any other exception is a crash of the interpreter.
     */
    static Result load(List<Source> sources, Loader loader) {
        Gate gate = Gate.named("PTX interpreter loads the corpus");
        AtomicInteger loaded = new AtomicInteger();
        for (Source s : sources) {
            try {
                loader.load(s);
                loaded.incrementAndGet();
                gate.pass();
            } catch (ProgramException pe) {
                System.out.println("  refused: " + pe.getMessage().lines().findFirst().orElse(""));
                if (pe.getMessage().contains(s.name())) {
                    gate.pass();
                } else {
                    gate.differ(s.name(), "refusal does not name the file: " + pe.getMessage());
                }
            } catch (RuntimeException | StackOverflowError e) {
                gate.crash(s.name(), e);
            }
        }
        return new Result(gate, loaded.get());
    }

    static final Loader INTERPRETER = s -> PtxProgram.load(s.name(), s.text()).entries();

    @Test
    void everyAcceptedCorpusFileLoadsOrIsRefusedByName() {
        List<Source> sources = Corpus.assumeEntries().stream().filter(Corpus.Entry::ptxasAccepts).map(e -> {
            try {
                // a file INDEX.tsv lists but that is missing fails here, by name
                return new Source(e.file().getFileName().toString(), Files.readString(e.file(), StandardCharsets.UTF_8));
            } catch (IOException x) {
                throw new UncheckedIOException(x);
            }
        }).toList();
        Result r = load(sources, INTERPRETER);
        System.out.println(r.gate().summary() + "; " + r.loaded() + " loaded, " + (r.gate().compared() - r.loaded())
                + " refused by name");
        r.gate().verify(Math.max(1, sources.size()));
        Figures.check("simulator.interpreter.corpus.loaded", r.loaded());
    }

    @Test
    void theGateFailsOnAnEmptyCorpusACrashAndAnAnonymousRefusal() {
        assertFalse(load(List.of(), INTERPRETER).gate().passes(1), "nothing compared");
        Source s = new Source("k.ptx", ".version 9.0\n.target sm_80\n.address_size 64\n");
        Result crash = load(List.of(s), x -> {
            throw new IllegalStateException("planted");
        });
        assertEquals(1, crash.gate().crashes().size());
        Result anonymous = load(List.of(s), x -> {
            throw new ProgramException("refused without saying where");
        });
        assertEquals(1, anonymous.gate().differences().size());
        assertFalse(anonymous.gate().passes(1));
    }
}
