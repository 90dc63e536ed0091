package org.jptxas.frontend.ptx.check;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jptxas.frontend.ptx.ast.TuningDirective;
import org.jptxas.tables.ptx.PtxType;

/**
 * The PTX ISA version and SM version that directives need (PTX ISA manual, "PTX ISA Notes" and "Target ISA Notes"
 * of each directive). Instruction gates live in the instruction table.
 */
final class FeatureGates {
    private FeatureGates() {}

    /** Minimum {@code .version} (times 10) of each tuning/ABI directive. */
    static final Map<TuningDirective.Kind, Integer> TUNING_VERSION = Map.ofEntries(
            Map.entry(TuningDirective.Kind.MAXNREG, 13), Map.entry(TuningDirective.Kind.MAXNTID, 13),
            Map.entry(TuningDirective.Kind.REQNTID, 21), Map.entry(TuningDirective.Kind.MINNCTAPERSM, 20),
            Map.entry(TuningDirective.Kind.MAXNCTAPERSM, 13), Map.entry(TuningDirective.Kind.EXPLICITCLUSTER, 78),
            Map.entry(TuningDirective.Kind.REQNCTAPERCLUSTER, 78), Map.entry(TuningDirective.Kind.MAXCLUSTERRANK, 78),
            Map.entry(TuningDirective.Kind.BLOCKSAREACLUSTERS, 90), Map.entry(TuningDirective.Kind.NORETURN, 64),
            Map.entry(TuningDirective.Kind.ABI_PRESERVE, 90), Map.entry(TuningDirective.Kind.ABI_PRESERVE_CONTROL, 90));

    /** Minimum SM version of tuning directives that need one. */
    static final Map<TuningDirective.Kind, Integer> TUNING_SM = Map.of(
            TuningDirective.Kind.EXPLICITCLUSTER, 90, TuningDirective.Kind.REQNCTAPERCLUSTER, 90,
            TuningDirective.Kind.MAXCLUSTERRANK, 90, TuningDirective.Kind.BLOCKSAREACLUSTERS, 90);

    static final int ALIAS_VERSION = 63;
    static final int ADDRESS_SIZE_VERSION = 23;

    /**
     * The oldest {@code .version} (times 10) that knows {@code .target sm_<sm><suffix>}; 0 when not recorded.
     */
    static int minimumVersionFor(int sm, String suffix) {
        if (suffix.equals("f")) {
            return 88;
        }
        if (suffix.equals("a")) {
            return switch (sm) {
                case 90 -> 80;
                case 100, 101 -> 86;
                case 120 -> 87;
                case 103, 121 -> 88;
                default -> 90;
            };
        }
        return switch (sm) {
            case 50 -> 40;
            case 52 -> 41;
            case 53 -> 42;
            case 60, 61, 62 -> 50;
            case 70 -> 60;
            case 72 -> 61;
            case 75 -> 63;
            case 80 -> 70;
            case 86 -> 71;
            case 87 -> 74;
            case 89, 90 -> 78;
            case 100, 101 -> 86;
            case 120 -> 87;
            case 103, 121 -> 88;
            case 88, 110 -> 90;
            default -> 0;
        };
    }

    /** Targets that ptxas 13 still accepts in {@code .target} although it no longer generates code for them. */
    static boolean isLegacyTarget(int sm) {
        return sm == 10 || sm == 11 || sm == 12 || sm == 13 || sm == 20 || sm == 21 || sm == 30 || sm == 32
                || sm == 35 || sm == 37;
    }

    static String versionText(int times10) {
        return (times10 / 10) + "." + (times10 % 10);
    }

    /**
     * ptxas's warnings on vote and shfl without {@code .sync}, which PTX before 6.4 still accepts: on sm_70 and later
     * the warp may have diverged, and from PTX 6.0 the forms are deprecated. Empty for other instructions.
     */
    static List<String> warpWithoutSyncWarnings(String opcode, List<String> modifiers, int versionTimes10, int sm) {
        List<String> out = new ArrayList<>(2);
        if (!(opcode.equals("vote") || opcode.equals("shfl")) || modifiers.contains("sync")) {
            return out;
        }
        if (sm >= 70) {
            out.add("Instruction '" + opcode + "' without '.sync' may produce unpredictable results on sm_70 and later"
                    + " architectures");
        }
        if (versionTimes10 >= 60) {
            out.add("Instruction '" + opcode + "' without '.sync' is deprecated since PTX ISA version 6.0 and will be"
                    + " discontinued in a future PTX ISA version");
        }
        return out;
    }

    /**
     * ptxas warns "Vector Type not specified properly" where a vector modifier is not followed at once by the type
     * ({@code atom.v2.add.f32}, {@code ld.global.v2.L2::cache_hint.f32}), whether or not the instruction is legal.
     */
    static boolean vectorBeforeOtherModifier(List<String> modifiers) {
        for (int k = 0; k < modifiers.size(); k++) {
            if (isVector(modifiers.get(k))
                    && (k + 1 == modifiers.size() || PtxType.of(modifiers.get(k + 1)).isEmpty())) {
                return true;
            }
        }
        return false;
    }

    /** {@code v2}, {@code v4} or {@code v8} (asked of every instruction's modifiers: no regular expression). */
    private static boolean isVector(String modifier) {
        return modifier.length() == 2 && modifier.charAt(0) == 'v'
                && (modifier.charAt(1) == '2' || modifier.charAt(1) == '4' || modifier.charAt(1) == '8');
    }
}
