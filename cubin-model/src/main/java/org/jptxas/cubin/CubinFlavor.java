package org.jptxas.cubin;

import java.util.List;
import java.util.Objects;

/**
 * How ptxas 13 lays out the cubins of a group of targets ({@code tables/cubin/flavors.json}): the cubin writer, the
 * layout planner, the {@code .debug_frame} encoder and the resource report ask it instead of comparing SM numbers. A
 * backend names its targets' flavour in its description; tools reading an existing cubin look it up by the SM in its
 * header ({@link CubinFlavors#forSm}).
 *
 * @param hopperLayout   ptxas's layout from sm_90 on: relocations with addends for code, bank 4 and
 *                       {@code .debug_frame}; bank 0 after the code; {@code .nv.compat}; reserved-shared symbols; no
 *                       {@code .nv.rel.action}; {@code .debug_frame} rows by address and 16-bit branch offsets
 * @param mercuryMirrors {@code .nv.merc.*} sections share the bytes of the sections they copy (sm_100 on)
 * @param paramBase      where the kernel parameters start in constant bank 0 (hex)
 * @param reservedShared bytes at the start of a block's shared window the system keeps (ptxas places shared variables
 *                       above them and counts them in the kernel's shared size)
 * @param reservedSharedSection bytes of {@code .nv.shared.reserved.0}
 * @param compatFastpath the first byte of the fast-path record of {@code .nv.compat}
 * @param systemCallAbi  {@code .nv.prototype} carries the system-call ABI suffix
 * @param elfFlagsArch   the low byte of {@code e_flags} under ABI version 8
 * @param shstrtabSlack  the zero bytes ptxas leaves after {@code .shstrtab}
 */
public record CubinFlavor(String name, List<Integer> sms, boolean hopperLayout, boolean mercuryMirrors,
        String paramBase, int reservedShared, int reservedSharedSection, int compatFastpath, boolean systemCallAbi, int elfFlagsArch,
        Slack shstrtabSlack) {
    public CubinFlavor {
        Objects.requireNonNull(name, "name");
        sms = List.copyOf(sms);
        Objects.requireNonNull(paramBase, "paramBase");
        Objects.requireNonNull(shstrtabSlack, "shstrtabSlack");
        Integer.decode(paramBase);
    }

    /** {@code base} bytes, plus per code section {@code perText} and its function name's length (when not 0). */
    public record Slack(int base, int perText) {}

    /** Where the kernel parameters start in constant bank 0. */
    public int parameterBase() {
        return Integer.decode(paramBase);
    }
}
