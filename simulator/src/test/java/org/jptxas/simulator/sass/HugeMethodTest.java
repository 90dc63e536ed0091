package org.jptxas.simulator.sass;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * HotSpot leaves methods over 8000 bytes of bytecode to the interpreter (DontCompileHugeMethods): when
 * {@code SassMachine.step} (now {@link ThreadSemantics}'s) grew to 8142 bytes the emulator ran 2-4x slower with no
 * other sign. Every method of the emulator's hot classes must stay under the limit (measured with the JDK's javap;
 * skipped on a bare JRE).
 */
class HugeMethodTest {
    private static final Pattern OFFSET = Pattern.compile("^\\s+(\\d+): ");

    @Test
    void hotClassesHaveNoMethodHotSpotWillNotCompile() throws Exception {
        Path javap = Path.of(System.getProperty("java.home"), "bin", "javap");
        org.jptxas.testing.Prerequisites.require(Files.isExecutable(javap), "no javap in " + System.getProperty("java.home"));
        String classes = Path.of(SassMachine.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
        List<String> huge = new ArrayList<>();
        for (String cls : List.of(SassMachine.class, FastPath.class, ThreadSemantics.class,
                UniformDatapath.class, WarpCollectives.class, ConvergenceControl.class, IntegerOps.class, FloatOps.class,
                MemoryOps.class, OperandAccess.class, AddressWindows.class).stream().map(Class::getName).toList()) {
            Process p = new ProcessBuilder(javap.toString(), "-c", "-p", "-cp", classes, cls).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(p.waitFor() == 0, out);
            String method = null;
            int last = 0;
            for (String line : (out + "\n  end();").split("\n")) {
                if (line.startsWith("  ") && !line.startsWith("   ") && line.endsWith(");")) {
                    if (method != null && last >= 8000) {
                        huge.add(cls + "." + method.strip() + ": " + last + " bytes");
                    }
                    method = line;
                    last = 0;
                }
                Matcher m = OFFSET.matcher(line);
                if (m.find()) {
                    last = Integer.parseInt(m.group(1));
                }
            }
        }
        assertTrue(huge.isEmpty(), "methods HotSpot will not compile: " + huge);
    }
}
