package org.jptxas.simulator.sass;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jptxas.ori.target.Target;
import org.jptxas.simulator.exec.ExecutionLimits;
import org.jptxas.simulator.exec.Launch;
import org.jptxas.simulator.exec.LaunchResult;
import org.jptxas.simulator.launch.LaunchSpecReader;

/**
 * Runs hand-written SASS text (labels as {@code .L_x:} lines, addresses 16 bytes apart; assembled and decoded as
 * {@link AssembledText} does) as one warp of 32 threads in the emulator, with one output buffer as the kernel's only parameter, and returns that buffer as words.
 */
final class SassTextRun {
    private SassTextRun() {}

    static int[] run(String sm, List<String> text, int words) throws Exception {
        int[] result = new int[words];
        LaunchResult r = launch(sm, text, result);
        assertTrue(r.completed(), () -> r.fault().orElseThrow().describe());
        return result;
    }

    /**
     * Runs {@code setUp} then {@code ops}, lines where {@code Rd} stands for the op's own destination (R20 on), and
     * returns each op's destination word (R2:R3 the output buffer; the set-up may use R4..R19).
     */
    static int[] ops(String sm, List<String> setUp, List<String> ops) throws Exception {
        List<String> text = new ArrayList<>();
        text.add(pointer(sm, 0, 0));
        text.addAll(setUp);
        for (int i = 0; i < ops.size(); i++) {
            text.add(ops.get(i).replace("Rd", "R" + (20 + i)));
        }
        for (int i = 0; i < ops.size(); i++) {
            text.add(String.format("STG.E %s[R2.64%s], R%d", global(sm),
                    i == 0 ? "" : String.format("+0x%x", 4 * i), 20 + i));
        }
        text.add("EXIT");
        return run(sm, text, ops.size());
    }

    /**
     * Lines (one entry of a program's text) that point R2:R3 at the kernel parameter {@code paramOffset} bytes into
     * the parameters, plus {@code stride} bytes per R0 (none for 0), spelled as the target's tables encode them: two
     * MOVs from the parameter bank, or an LDC.64 where the tables have no MOV of the bank (sm_90).
     */
    static String pointer(String sm, int paramOffset, int stride) {
        int at = org.jptxas.simulator.abi.ConstantBank0Layout.of(Target.of(sm)).paramBase() + paramOffset;
        String load = String.format("MOV R2, c[0x0][0x%x]\nMOV R3, c[0x0][0x%x]", at, at + 4);
        try {
            new org.jptxas.sass.SassAssembler(org.jptxas.spi.TestTargets.of(sm).isa()).assemble(load.split("\n")[0], 0, null);
        } catch (org.jptxas.sass.SassAssembler.AssemblyException e) {
            load = String.format("LDC.64 R2, c[0x0][0x%x]", at);
        }
        return stride == 0 ? load : load + String.format("\nIMAD.WIDE.U32 R2, R0, 0x%x, R2", stride);
    }

    /**
     * What the target's global loads and stores write before their address: {@code desc[UR4]} where the tables
     * encode only the descriptor form (sm_90), else nothing.
     */
    static String global(String sm) {
        try {
            new org.jptxas.sass.SassAssembler(org.jptxas.spi.TestTargets.of(sm).isa()).assemble("STG.E [R2.64], R0", 0, null);
            return "";
        } catch (org.jptxas.sass.SassAssembler.AssemblyException e) {
            return "desc[UR4]";
        }
    }

    /** Runs {@code text}; {@code out} receives the buffer's words (when the run completes). */
    static LaunchResult launch(String sm, List<String> text, int[] out) throws Exception {
        return launch(sm, text, out, 0);
    }

    /** As {@link #launch(String, List, int[])}, with {@code sharedBytes} of dynamic shared memory. */
    static LaunchResult launch(String sm, List<String> text, int[] out, int sharedBytes) throws Exception {
        return launch(sm, text, out, sharedBytes, false);
    }

    /** As {@link #run}, for a program in spellings its target's tables do not encode ({@link HandWrittenSass}). */
    static int[] runAsWritten(String sm, List<String> text, int words) throws Exception {
        int[] result = new int[words];
        LaunchResult r = launch(sm, text, result, 0, true);
        assertTrue(r.completed(), () -> r.fault().orElseThrow().describe());
        return result;
    }

    /** As {@link #launch(String, List, int[], int)}, for a program read by {@link HandWrittenSass}. */
    static LaunchResult launchAsWritten(String sm, List<String> text, int[] out, int sharedBytes) throws Exception {
        return launch(sm, text, out, sharedBytes, true);
    }

    private static LaunchResult launch(String sm, List<String> text, int[] out, int sharedBytes, boolean asWritten)
            throws Exception {
        int words = out.length;
        List<SassOp> ops = new ArrayList<>();
        Map<String, Long> labels = new HashMap<>();
        List<String> code = new ArrayList<>();
        for (String line : AssembledText.lines(text)) {
            if (line.endsWith(":")) {
                labels.put(line.substring(0, line.length() - 1), 16L * code.size());
            } else {
                code.add(line);
            }
        }
        ops.addAll(asWritten ? HandWrittenSass.ops(code, labels) : AssembledText.ops(sm, code, labels));
        Launch launch = Launch.prepare(Target.of(sm), LaunchSpecReader.parse("text.json", "{\"entry\":\"k\","
                + "\"grid\":[1,1,1],\"block\":[32,1,1],\"dynamic_shared_bytes\":" + sharedBytes + ",\"params\":[{\"type\":\"ptr\",\"bytes\":" + 4 * words + "}]}",
                Path.of(".")));
        SassMachine m = new SassMachine("SASS emulator (" + sm + ")", DecodedOp.decodeAll(ops), launch,
                ExecutionLimits.DEFAULT.withMaxWarpInstructions(10_000), 0, Map.of(), x -> Optional.empty(), true,
                false);
        LaunchResult r = m.run();
        ByteBuffer buffer = ByteBuffer.wrap(launch.arguments().get(0).buffer().orElseThrow().bytes())
                .order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < words; i++) {
            out[i] = buffer.getInt(4 * i);
        }
        return r;
    }
}
