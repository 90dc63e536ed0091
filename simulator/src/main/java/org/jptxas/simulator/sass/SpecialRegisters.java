package org.jptxas.simulator.sass;

import org.jptxas.simulator.exec.Fault;
import org.jptxas.simulator.launch.Dim3Point;
import org.jptxas.simulator.sass.SassMachine.Thread;

/** The special registers S2R, S2UR and CS2R read (moved out of {@link SassMachine}). */
final class SpecialRegisters {
    private SpecialRegisters() {
    }

    /**
     * Register {@code sr} of thread {@code t} in block {@code cta}; the clocks count warp instructions; {@code rank}
     * is the block's rank in its cluster (0 outside cluster launches).
     */
    static int read(String sr, Thread t, Dim3Point cta, long clock, int rank) {
        return switch (sr) {
            case "SR_TID.X" -> t.tid.x();
            case "SR_TID.Y" -> t.tid.y();
            case "SR_TID.Z" -> t.tid.z();
            case "SR_CTAID.X" -> cta.x();
            case "SR_CTAID.Y" -> cta.y();
            case "SR_CTAID.Z" -> cta.z();
            case "SR_LANEID" -> t.lane;
            case "SR_TID" -> t.tid.x() | t.tid.y() << 16 | t.tid.z() << 26;
            case "SR_CLOCKLO", "SR_GLOBALTIMERLO" -> (int) clock;
            case "SR_CLOCKHI", "SR_GLOBALTIMERHI" -> (int) (clock >>> 32);
            case "SR_EQMASK" -> 1 << t.lane;
            case "SR_LTMASK" -> (1 << t.lane) - 1;
            case "SR_LEMASK" -> (int) ((2L << t.lane) - 1);
            case "SR_GTMASK" -> (int) ~((2L << t.lane) - 1);
            case "SR_GEMASK" -> ~((1 << t.lane) - 1);
            // the warp's slot in [14:8] and the SM's warp count in [15:8] (what ptxas extracts for %warpid and
            // %nwarpid); one SM, whose warp slots are the block's warps in order, as the PTX interpreter has it
            case "SR_VIRTID" -> (t.linear / 32) << 8;
            case "SR_VIRTCFG" -> 64 << 8;
            case "SR_VIRTUALSMID" -> 0;
            case "SR_PM0", "SR_PM1", "SR_PM2", "SR_PM3", "SR_PM4", "SR_PM5", "SR_PM6", "SR_PM7" -> 0;
            case "SRZ" -> 0;
            case "SR_CgaCtaId" -> rank; // the block's rank in its cluster
            case "SR_SWINHI" -> (int) (AddressWindows.SHARED_WINDOW >>> 32); // the shared window's high word (generic addresses)
            default -> throw new SassMachine.Stop(new Fault.Unimplemented("special register " + sr, ""));
        };
    }
}
