package org.jptxas.simulator.sass;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.jptxas.ori.target.Target;
import org.jptxas.simulator.abi.ConstantBank0Layout;
import org.junit.jupiter.api.Test;

/**
 * The predicate-file moves and the uniform popcount ptxas 13 writes in the random programs: {@code R2P PR, Ra, mask}
 * sets P0..P6 from a's bits under the mask (the others keep their values), {@code UP2UR URd, UPR, URb, mask} puts
 * UP0..UP6 into b's masked bits (as P2R does for P), {@code UPOPC} counts a uniform register's bits.
 */
class PredicateRegisterMovesTest {
    @Test
    void predicatesMoveToAndFromRegisters() throws Exception {
        int params = ConstantBank0Layout.of(Target.of("sm_80")).paramBase();
        int[] out = SassTextRun.run("sm_80", List.of(
                "S2R R0, SR_TID.X",
                SassTextRun.pointer("sm_80", 0, 0x10),
                // P1 and P4 set from lane bits 1 and 4; P0 stays set, P2 stays clear (not in the mask)
                "ISETP.EQ.U32.AND P0, PT, RZ, RZ, PT",
                "ISETP.NE.U32.AND P2, PT, RZ, RZ, PT",
                "R2P PR, R0, 0x12",
                "P2R R4, PR, RZ, 0x7f",
                // UP0 set, UP1 clear: 0x1 under mask 0x3 into 0xf0
                "UISETP.EQ.U32.AND UP0, UPT, URZ, URZ, UPT",
                "UISETP.NE.U32.AND UP1, UPT, URZ, URZ, UPT",
                "UMOV UR4, 0xf2",
                "UP2UR UR5, UPR, UR4, 0x3",
                "UMOV UR6, 0xf00f0001",
                "UPOPC UR7, UR6",
                "MOV R5, UR5",
                "MOV R6, UR7",
                "STG.E [R2.64], R4",
                "STG.E [R2.64+0x4], R5",
                "STG.E [R2.64+0x8], R6",
                "EXIT"), 32 * 4);
        for (int lane = 0; lane < 32; lane++) {
            assertEquals(1 | lane & 0x12, out[4 * lane], "lane " + lane + ": P0, P1 and P4 from bits 1 and 4");
        }
        assertEquals(0xf1, out[1], "UP0 into bit 0, UP1 into bit 1 of 0xf2");
        assertEquals(9, out[2], "popcount of 0xf00f0001");
    }

    /**
     * sm_90's ptxas saves the uniform predicates in a register's top byte and restores them ({@code UP2UR.B3 UR62,
     * UPR, UR62, 0xff} ... {@code UR2UP UPR, UR62.B3}); {@code CCTLL.PF1 [R1]} (prefetch.local) changes nothing.
     */
    @Test
    void uniformPredicatesSurviveABytesRoundTrip() throws Exception {
        int[] out = SassTextRun.run("sm_90", List.of(
                SassTextRun.pointer("sm_90", 0, 0),
                "UISETP.EQ.U32.AND UP0, UPT, URZ, URZ, UPT",
                "UISETP.NE.U32.AND UP1, UPT, URZ, URZ, UPT",
                "UISETP.EQ.U32.AND UP2, UPT, URZ, URZ, UPT",
                "UMOV UR62, 0x11223344",
                "UP2UR.B3 UR62, UPR, UR62, 0xff",
                "MOV R4, UR62",
                // clobber: UP0 and UP2 clear, UP1 set; the restore brings back 1, 0, 1
                "UISETP.NE.U32.AND UP0, UPT, URZ, URZ, UPT",
                "UISETP.EQ.U32.AND UP1, UPT, URZ, URZ, UPT",
                "UISETP.NE.U32.AND UP2, UPT, URZ, URZ, UPT",
                "CCTLL.PF1 [R1]",
                "UR2UP UPR, UR62.B3",
                "UP2UR UR5, UPR, URZ, 0x7f",
                "MOV R5, UR5",
                "STG.E " + SassTextRun.global("sm_90") + "[R2.64], R4",
                "STG.E " + SassTextRun.global("sm_90") + "[R2.64+0x4], R5",
                "EXIT"), 2);
        assertEquals(0x05223344, out[0], "UP0 and UP2 into byte 3, the other bytes kept");
        assertEquals(0x05, out[1], "UP0..UP6 back from byte 3");
    }
}
