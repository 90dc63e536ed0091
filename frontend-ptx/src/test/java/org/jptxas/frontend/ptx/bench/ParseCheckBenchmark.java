package org.jptxas.frontend.ptx.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.jptxas.ori.diag.CompilationException;
import org.jptxas.ori.target.Target;
import org.jptxas.testing.Corpus;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.infra.Blackhole;
import org.jptxas.frontend.ptx.TestFrontEnds;

/**
 * Parse+check throughput of the PTX front end (instruction table included) over the shared corpus: the whole set of
 * files ptxas accepts, and its five largest files. Run with {@code mvn -B -Pjmh -pl frontend-ptx -am test
 * -DskipTests}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class ParseCheckBenchmark {
    record Input(String name, String text, Target target) {
    }

    List<Input> all;
    List<Input> largest;
    long totalBytes;

    @Setup(Level.Trial)
    public void load() throws IOException {
        all = new ArrayList<>();
        for (Corpus.Entry e : Corpus.dir().isPresent() ? Corpus.assumeEntries() : List.<Corpus.Entry>of()) {
            if (e.ptxasAccepts()) {
                String text = new String(Files.readAllBytes(e.file()), StandardCharsets.ISO_8859_1);
                all.add(new Input(e.file().getFileName().toString(), text, Target.of(e.arch())));
                totalBytes += text.length();
            }
        }
        if (all.isEmpty()) {
            throw new IllegalStateException("the shared corpus (../shared/corpus or JPTXAS_CORPUS) is needed");
        }
        largest = all.stream().sorted(Comparator.comparingInt((Input i) -> i.text().length()).reversed()).limit(5).toList();
        System.out.printf("%n%d files, %.1f MB; five largest: %.1f MB%n", all.size(), totalBytes / 1e6,
                largest.stream().mapToInt(i -> i.text().length()).sum() / 1e6);
    }

    static Object check(Input in) {
        try {
            return TestFrontEnds.of(in.target()).check(in.name(), in.text());
        } catch (CompilationException e) {
            return e; // files the instruction table does not yet accept still cost their full parse and check
        }
    }

    @Benchmark
    public void wholeCorpus(Blackhole bh) {
        for (Input in : all) {
            bh.consume(check(in));
        }
    }

    @Benchmark
    public void fiveLargestFiles(Blackhole bh) {
        for (Input in : largest) {
            bh.consume(check(in));
        }
    }
}
