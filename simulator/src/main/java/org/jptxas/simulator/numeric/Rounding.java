package org.jptxas.simulator.numeric;

/** IEEE 754 rounding directions, as PTX names them ({@code .rn .rz .rm .rp}). */
public enum Rounding {
    RN, RZ, RM, RP;

    /** The rounding of an instruction modifier ({@code rn}, {@code rzi}, ...); {@code null} when it is none. */
    public static Rounding ofModifier(String m) {
        return switch (m) {
            case "rn", "rni" -> RN;
            case "rz", "rzi" -> RZ;
            case "rm", "rmi" -> RM;
            case "rp", "rpi" -> RP;
            default -> null;
        };
    }
}
