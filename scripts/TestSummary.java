import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import javax.xml.parsers.DocumentBuilderFactory;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * Reads every module's surefire and failsafe XML reports under the given folder and prints how many tests ran,
 * failed and were skipped, the skips grouped by reason. Exit 1 when a test failed, when nothing ran, or (with
 * {@code --strict}, as CI runs it) when a test was skipped because an oracle or the corpus was missing.
 * Run: {@code java scripts/TestSummary.java [--strict] [root]}.
 */
public class TestSummary {
    public static void main(String[] args) throws Exception {
        boolean strict = List.of(args).contains("--strict");
        Path root = Path.of(List.of(args).stream().filter(a -> !a.startsWith("--")).findFirst().orElse("."));
        List<Path> reports;
        try (Stream<Path> s = Files.walk(root, 4)) {
            reports = s.filter(p -> p.getFileName().toString().startsWith("TEST-") && p.toString().endsWith(".xml")
                    && (p.getParent().endsWith("surefire-reports") || p.getParent().endsWith("failsafe-reports")))
                    .sorted().toList();
        }
        int run = 0, failed = 0, skipped = 0;
        Map<String, Integer> skipsByReason = new TreeMap<>();
        Map<String, Integer> runByModule = new TreeMap<>();
        List<String> failures = new ArrayList<>();
        for (Path p : reports) {
            Element suite = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(p.toFile()).getDocumentElement();
            String module = root.relativize(p).getName(0).toString();
            NodeList cases = suite.getElementsByTagName("testcase");
            for (int i = 0; i < cases.getLength(); i++) {
                Element c = (Element) cases.item(i);
                String name = c.getAttribute("classname") + "." + c.getAttribute("name");
                run++;
                runByModule.merge(module, 1, Integer::sum);
                if (has(c, "failure") || has(c, "error")) {
                    failed++;
                    failures.add(module + ": " + name);
                } else if (has(c, "skipped")) {
                    skipped++;
                    String reason = ((Element) c.getElementsByTagName("skipped").item(0)).getAttribute("message");
                    skipsByReason.merge(reason.isBlank() ? "(no reason given)" : reason.lines().findFirst().orElse(""),
                            1, Integer::sum);
                }
            }
        }
        System.out.printf("tests: %d run, %d passed, %d failed, %d skipped (%d report files)%n", run,
                run - failed - skipped, failed, skipped, reports.size());
        runByModule.forEach((m, n) -> System.out.printf("  %-16s %d%n", m, n));
        skipsByReason.forEach((r, n) -> System.out.printf("  skipped x%d: %s%n", n, r));
        failures.forEach(f -> System.out.println("  FAILED " + f));
        List<String> missing = skipsByReason.keySet().stream().filter(TestSummary::isPrerequisite).toList();
        if (strict && !missing.isEmpty()) {
            System.out.println("test-summary: tests skipped for a missing oracle or corpus under CI: " + missing);
            System.exit(1);
        }
        System.exit(run == 0 || failed > 0 ? 1 : 0);
    }

    private static boolean has(Element c, String tag) {
        return c.getElementsByTagName(tag).getLength() > 0;
    }

    /** A skip reason naming an oracle tool or the corpus (Oracles and Corpus word them so). */
    static boolean isPrerequisite(String reason) {
        String r = reason.toLowerCase();
        return Stream.of("ptxas", "nvdisasm", "cuobjdump", "nvlink", "oracle", "corpus").anyMatch(r::contains);
    }
}
