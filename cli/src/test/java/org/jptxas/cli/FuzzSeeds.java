package org.jptxas.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.jptxas.cubin.Cubin;
import org.jptxas.cubin.Section;

/**
 * Seed corpora of {@link ReliabilityFuzzTest}'s targets, for {@code scripts/fuzz}: {@code FuzzSeeds OUT SUITE CORPUS}
 * writes one folder per target under OUT. PTX and launch specs are symbolic links to the files where they are (the
 * kernel suite and the shared corpus are never copied); cubins, code words and SASS text are compiled from the
 * suite by jptxas itself. Each target's seeds use its input layout (sassDecode and sassAssemble: one SM byte first).
 */
public final class FuzzSeeds {
    private FuzzSeeds() {}

    /** PTX files larger than this are left out: the fuzzer's inputs are capped near it (-max_len). */
    static final long MAX_PTX = 16 * 1024;

    public static void main(String[] args) throws IOException {
        Path out = Path.of(args[0]).toAbsolutePath();
        Path suite = Path.of(args[1]).toAbsolutePath();
        Path corpus = args.length > 2 ? Path.of(args[2]).toAbsolutePath() : null;
        for (String t : List.of("compile", "frontEnd", "sassDecode", "sassAssemble", "cubinReader", "launchSpec",
                "emulator")) {
            Files.createDirectories(out.resolve(t));
        }
        List<Path> suitePtx = find(suite, ".ptx");
        List<Path> ptx = new ArrayList<>(suitePtx);
        if (corpus != null && Files.isDirectory(corpus)) {
            ptx.addAll(find(corpus, ".ptx"));
        }
        int n = 0;
        for (Path p : ptx) {
            if (Files.size(p) <= MAX_PTX) {
                String name = (n++) + "-" + p.getFileName();
                Files.createSymbolicLink(out.resolve("compile").resolve(name), p);
                Files.createSymbolicLink(out.resolve("frontEnd").resolve(name), p);
            }
        }
        int specs = 0;
        for (Path p : find(suite, "launch.json")) {
            Files.createSymbolicLink(out.resolve("launchSpec").resolve(p.getParent().getFileName() + ".json"), p);
            specs++;
        }
        int cubins = 0;
        Path work = Files.createTempDirectory("jptxas-fuzz-seeds");
        String[] sms = ReliabilityFuzzTest.SMS;
        Registries backends = Registries.shared(); // discovered once for the ~370 compiles
        for (Path p : suitePtx) {
            for (int s = 0; s < sms.length; s++) {
                String sm = sms[s];
                Path cubin = work.resolve("k.cubin");
                Path sass = work.resolve("k.sass");
                int rc = new JptxasCommand(new PrintWriter(new StringWriter()), new PrintWriter(new StringWriter()),
                        Map.of(), null, work, backends).run(new String[] {"-arch=" + sm, p.toString(), "-o", cubin.toString(),
                                "--out-sass", sass.toString()});
                if (rc != 0) {
                    continue;
                }
                String base = p.getFileName().toString().replace(".ptx", "") + "-" + sm;
                byte[] bytes = Files.readAllBytes(cubin);
                Files.write(out.resolve("cubinReader").resolve(base + ".cubin"), bytes);
                cubins++;
                byte[] code = codeOf(bytes);
                byte[] decode = new byte[1 + Math.min(code.length, 4096 - 16)];
                decode[0] = (byte) s;
                System.arraycopy(code, 0, decode, 1, decode.length - 1);
                Files.write(out.resolve("sassDecode").resolve(base), decode);
                if (sm.equals("sm_80")) {
                    Files.write(out.resolve("emulator").resolve(base), java.util.Arrays.copyOf(code,
                            Math.min(code.length, 4096)));
                }
                List<String> lines = Files.readAllLines(sass, StandardCharsets.UTF_8);
                StringBuilder text = new StringBuilder().append((char) s);
                for (String line : lines.subList(0, Math.min(lines.size(), 60))) {
                    text.append(line.strip()).append('\n');
                }
                Files.write(out.resolve("sassAssemble").resolve(base), text.toString().getBytes(StandardCharsets.ISO_8859_1));
            }
        }
        try (Stream<Path> left = Files.list(work)) {
            for (Path p : left.toList()) {
                Files.delete(p);
            }
        }
        Files.delete(work);
        System.out.printf("fuzz seeds: %d PTX files (<= %d bytes, suite and corpus, linked), %d launch specs (linked), "
                + "%d cubins compiled from the suite%n", n, MAX_PTX, specs, cubins);
    }

    private static List<Path> find(Path root, String suffix) throws IOException {
        try (Stream<Path> s = Files.walk(root)) {
            return s.filter(Files::isRegularFile).filter(p -> p.getFileName().toString().endsWith(suffix)).sorted()
                    .toList();
        }
    }

    /** The bytes of the cubin's first code section. */
    private static byte[] codeOf(byte[] cubin) {
        for (Section s : Cubin.read(cubin).sections()) {
            if (s.isText()) {
                return s.data();
            }
        }
        return new byte[0];
    }
}
