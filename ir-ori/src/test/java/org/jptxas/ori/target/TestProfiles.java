package org.jptxas.ori.target;

import java.util.EnumSet;
import java.util.Set;

/**
 * Target profiles for ir-ori's own tests, which come before the backends in the build: the facts of the bundled
 * backends' descriptions (their {@code backend.json} and the cubin flavours) that the optimizer reads. The
 * backends' tests check the real descriptions.
 */
public final class TestProfiles {
    private TestProfiles() {}

    public static TargetProfile of(String name) {
        Target t = Target.of(name);
        Set<TargetFeature> f = EnumSet.of(TargetFeature.UNIFORM_DATAPATH);
        int sm = t.sm();
        if (sm < 90) {
            f.add(TargetFeature.ALU_READS_CONSTANT_BANK);
            f.add(TargetFeature.UR_IN_GLOBAL_ADDRESS_BITS);
        }
        if (sm >= 80 && sm < 90) {
            f.add(TargetFeature.GLOBAL_DESCRIPTOR_IN_UR);
        }
        if (sm >= 90) {
            f.add(TargetFeature.GLOBAL_DESCRIPTOR_OPERAND);
            f.add(TargetFeature.WARPSYNC_ALL);
            f.add(TargetFeature.LEPC_NAMES_RETURN_POINT);
        }
        boolean hopper = sm >= 90;
        return new TargetProfile(t, sm >= 100 ? 0x380 : hopper ? 0x210 : 0x160, hopper ? 0x208 : 0x118,
                hopper ? 1024 : 0, sm >= 80 ? 8 : 0, hopper ? "R_CUDA_ABS55_16_34" : "", f,
                sm > 90 ? null : new BankWindow(hopper ? 0xd0 : 0x50, 0),
                sm > 90 ? null : hopper ? new BankWindow(0x198, 0x210) : new BankWindow(0x40, 0),
                sm >= 100 ? DriverConstants.BLACKWELL : DriverConstants.CLASSIC);
    }
}
