package org.jptxas.ori.opt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.stream.Stream;
import org.jptxas.ori.analysis.IrPrinter;
import org.jptxas.ori.analysis.IrVerifier;
import org.jptxas.ori.ir.FunctionBody;
import org.jptxas.ori.ir.OriFunction;
import org.jptxas.ori.target.TargetProfile;
import org.jptxas.ori.target.TestProfiles;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Differential check of every pass and of the whole pipeline: random programs evaluated before and after on
 * several inputs must store the same values at the same addresses in the same order.
 */
class OptDifferentialTest {
    private static final TargetProfile SM80 = TestProfiles.of("sm_80");
    private static final TargetProfile SM90 = TestProfiles.of("sm_90");
    private static final long[] INPUTS = {1, -77, 0xabcdef};

    static Stream<Arguments> pipelines() {
        return Stream.of(
                Arguments.of("webs", List.<Pass>of(new WebSplitting())),
                Arguments.of("webs+copyprop", List.<Pass>of(new WebSplitting(), new CopyPropagation())),
                Arguments.of("constfold", List.<Pass>of(new ConstantFolding())),
                Arguments.of("copyprop", List.<Pass>of(new CopyPropagation())),
                Arguments.of("dce", List.<Pass>of(new DeadCodeElimination())),
                Arguments.of("cse", List.<Pass>of(new CommonSubexpressionElimination())),
                Arguments.of("combine", List.<Pass>of(new InstructionCombining())),
                Arguments.of("addrfold", List.<Pass>of(new AddressModeFolding())),
                Arguments.of("loadcse", List.<Pass>of(new RedundantLoadElimination())),
                Arguments.of("narrow", List.<Pass>of(new InstructionCombining(), new WideMultiplyNarrowing())),
                Arguments.of("ifconv", List.<Pass>of(new IfConversion())),
                Arguments.of("ifconv+merge", List.<Pass>of(new IfConversion(), new BlockMerging())),
                Arguments.of("branches", List.<Pass>of(new BranchCleanup())),
                Arguments.of("uniform", List.<Pass>of(new UniformDatapath())),
                Arguments.of("licm", List.<Pass>of(new LoopInvariantCodeMotion())),
                Arguments.of("O3", OptPipeline.forLevel(3).passes()),
                Arguments.of("O3-sm90", OptPipeline.forLevel(3).passes()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("pipelines")
    void straightLineProgramsKeepTheirStores(String name, List<Pass> passes) {
        check(passes, false, 80, targetFor(name));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("pipelines")
    void programsWithBranchesKeepTheirStores(String name, List<Pass> passes) {
        check(passes, true, 120, targetFor(name));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("pipelines")
    void programsWithLoopsKeepTheirStores(String name, List<Pass> passes) {
        check(passes, true, true, 120, targetFor(name));
    }

    /** Each pass must actually do something on programs made for it, or its differential test proves nothing. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("pipelines")
    void everyPassChangesSomePrograms(String name, List<Pass> passes) {
        int changed = 0;
        int before = 0;
        int after = 0;
        for (long seed = 0; seed < 100; seed++) {
            FunctionBody original = RandomPrograms.generate(seed, 40, true, true);
            FunctionBody optimized = RandomPrograms.generate(seed, 40, true, true);
            OptPipeline.of(passes).run(new OriFunction("r", true, 0, optimized), targetFor(name));
            if (!IrPrinter.print(new OriFunction("r", true, 0, original))
                    .equals(IrPrinter.print(new OriFunction("r", true, 0, optimized)))) {
                changed++;
            }
            before += original.instructionCount();
            after += optimized.instructionCount();
        }
        System.out.printf("pass %-10s changed %3d of 100 programs; instructions %d -> %d (%.1f%%)%n", name, changed,
                before, after, 100.0 * (before - after) / before);
        assertTrue(changed > 10, name + " changed only " + changed + " programs");
    }

    /** Many more programs through the whole pipeline (mvn verify -Pcorpus). */
    @org.junit.jupiter.api.Test
    @org.junit.jupiter.api.Tag("slow")
    void thousandsOfProgramsThroughTheWholePipeline() {
        check(OptPipeline.forLevel(3).passes(), true, 3000, SM80);
        check(OptPipeline.forLevel(3).passes(), false, 1000, SM90);
        check(OptPipeline.forLevel(3).passes(), true, true, 2000, SM80);
    }

    /** The uniform-datapath pass and the sm_90 pipeline run for sm_90 (constants only through URs), the rest sm_80. */
    static TargetProfile targetFor(String name) {
        return name.equals("uniform") || name.endsWith("sm90") ? SM90 : SM80;
    }

    static int[] check(List<Pass> passes, boolean branches, int programs, TargetProfile target) {
        return check(passes, branches, false, programs, target);
    }

    static int[] check(List<Pass> passes, boolean branches, boolean loops, int programs, TargetProfile target) {
        int before = 0;
        int after = 0;
        for (long seed = 0; seed < programs; seed++) {
            FunctionBody original = RandomPrograms.generate(seed, 40, branches, loops);
            FunctionBody optimized = RandomPrograms.generate(seed, 40, branches, loops);
            assertTrue(IrVerifier.verify("random", original).isEmpty(), () -> IrVerifier.verify("random", original).toString());
            String dump = IrPrinter.print(new OriFunction("random" + seed, true, 0, RandomPrograms.generate(seed, 40, branches, loops)));
            OptPipeline.of(passes).verifying(true).run(new OriFunction("random" + seed, true, 0, optimized), target);
            before += original.instructionCount();
            after += optimized.instructionCount();
            for (long input : INPUTS) {
                List<OriEvaluator.Store> expected = OriEvaluator.run(original, input);
                List<OriEvaluator.Store> actual = OriEvaluator.run(optimized, input);
                long s = seed;
                assertEquals(expected, actual, () -> "seed " + s + ", input " + input + "\nbefore:\n" + dump
                        + "after:\n" + IrPrinter.print(new OriFunction("opt", true, 0, optimized)));
            }
        }
        return new int[] {before, after};
    }
}
