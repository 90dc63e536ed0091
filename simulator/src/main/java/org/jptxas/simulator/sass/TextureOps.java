package org.jptxas.simulator.sass;

import java.util.List;
import org.jptxas.simulator.exec.Fault;
import org.jptxas.simulator.exec.SurfaceReduction;
import org.jptxas.simulator.exec.Texture;
import org.jptxas.simulator.sass.SassMachine.Stop;
import org.jptxas.simulator.sass.SassMachine.Thread;
import org.jptxas.simulator.sass.SassMachine.Warp;
import org.jptxas.simulator.sass.SassOperand.Reg;

/**
 * TEX, TLD and TLD4 with a bindless handle: {@code TEX.SCR.LL Rd2, Rd, Ra, Rb, 0x0, off, 2D{, mask}} (sm_75..89:
 * the handle is the 32-bit word at {@code c[0x0][4 off]}) and {@code TEX.LL Rd2, Rd, Ra, Rb, URh, 0x0, 2D{, mask}}
 * (sm_90: the low word of the uniform pair URh; sm_90's TLD4 has no Rb). TEX samples at float coordinates
 * ({@link Texture#sample}), TLD fetches at integer ones ({@link Texture#fetch}), TLD4 gathers one channel
 * ({@code .R/.G/.B/.A}) of four texels ({@link Texture#gather}); the level of detail ({@code .LL} in Rb, {@code .LZ}
 * zero) selects nothing, there being no mipmaps. The values (coordinates, then the level) fill Ra (two registers,
 * or every coordinate with a uniform handle), then Rb, exactly two one in each; the enabled components of the write
 * mask (default 0xf) are packed, the first two into the pair Rd and the rest into Rd2 (RZ discards them), as
 * {@code org.jptxas.scheduler.sass.TextureOperands} reads the operand widths. {@code TXQ Rd2, Rd, Ra,
 * TEX_HEADER_DIMENSION, handle{, mask}} returns the header's sizes ({@link Texture#dimensions}).
 *
 * <p>Also {@code SULD.D.BA.GEOM{.SIZE}.STRONG.SM{.TRAP,.IGN} Rd, [Ra], 0x0, off} and {@code SUST.D.BA... [Ra], Rb,
 * 0x0, off} (sm_90: {@code URh, 0x0}): 32 bits ({@code .64}, {@code .128}: 2 or 4 registers; {@code .U8},
 * {@code .U16} narrower, loads zero-extended) at Ra = x in bytes, Ra + 1 = y, Ra + 2 = z, a layer after the
 * coordinates of {@code 1D_ARRAY}/{@code 2D_ARRAY} ({@link Texture#surfaceAddress}; out of bounds faults under
 * {@code .TRAP}, is ignored under {@code .IGN} (loads read zero), and is clamped without either). {@code
 * SURED.D.BA.GEOM.{ADD,MIN,MAX,AND,OR}{.S32,.U64,.S64}... [Ra], Rb, 0x0, off} reduces the 32-bit element there
 * with Rb, or the 64-bit one with the pair Rb ({@link SurfaceReduction}; one thread at a time, as the warp's lanes
 * execute in order).
 */
final class TextureOps {
    private final SassMachine machine;

    TextureOps(SassMachine machine) {
        this.machine = machine;
    }

    void execute(SassOp op, Thread t, Warp w) {
        List<SassOperand> o = op.operands();
        if (op.opcode().equals("TXQ")) {
            query(op, t, w);
            return;
        }
        boolean gather = op.opcode().equals("TLD4");
        int geometry = -1;
        for (int k = 3; k < o.size() && geometry < 0; k++) {
            if (o.get(k) instanceof SassOperand.Other g && g.text().matches("[123]D")) {
                geometry = k;
            }
        }
        // the coordinate registers (Ra, and Rb but for sm_90's TLD4), then the handle
        int h = 2;
        while (h < o.size() && o.get(h) instanceof Reg) {
            h++;
        }
        if (geometry != h + 2 || h != 4 && !(gather && h == 3) || !(o.get(0) instanceof Reg rd2)
                || !(o.get(1) instanceof Reg rd) || !(o.get(2) instanceof Reg ra)
                || op.has("SCR") == o.get(h) instanceof SassOperand.UReg) {
            throw machine.unimplemented(op);
        }
        Reg rb = h == 4 ? (Reg) o.get(3) : null;
        int dims = ((SassOperand.Other) o.get(geometry)).text().charAt(0) - '0';
        int mask = geometry + 1 < o.size() && o.get(geometry + 1) instanceof SassOperand.Imm m ? (int) m.bits() & 0xf : 0xf;
        boolean uniform = o.get(h) instanceof SassOperand.UReg;
        long handle = handle(o, h, t, w);
        // the values fill Ra (two at most, all coordinates with a uniform handle), then Rb; exactly two go one in each
        int total = dims + (op.has("LL") ? 1 : 0);
        int inRa = uniform ? dims : total == 2 ? 1 : Math.min(2, total);
        int[] coords = new int[dims];
        for (int d = 0; d < dims; d++) {
            coords[d] = d < inRa ? reg(t, ra, d) : rb == null ? 0 : reg(t, rb, d - inRa);
        }
        int[] words;
        try {
            Texture tex = machine.launch.texture(handle);
            if (op.opcode().equals("TLD")) {
                words = tex.fetch(machine.launch.global(), coords);
            } else {
                float[] f = new float[Math.max(dims, tex.rank())];
                for (int d = 0; d < dims; d++) {
                    f[d] = Float.intBitsToFloat(coords[d]);
                }
                words = gather ? tex.gather(machine.launch.global(), f, "RGBA".indexOf(channel(op)))
                        : tex.sample(machine.launch.global(), f);
            }
        } catch (IllegalArgumentException | ArrayIndexOutOfBoundsException e) {
            throw new Stop(new Fault.InvalidExecution(machine.ref(t), op.where(), op.opcode() + ": " + e.getMessage()));
        }
        write(t, rd2, rd, mask, words);
    }

    /** {@code TXQ Rd2, Rd, Ra, TEX_HEADER_DIMENSION, handle, mask}: the header's sizes (Ra, the level, is 0). */
    private void query(SassOp op, Thread t, Warp w) {
        List<SassOperand> o = op.operands();
        if (o.size() < 6 || !(o.get(0) instanceof Reg rd2) || !(o.get(1) instanceof Reg rd) || !(o.get(2) instanceof Reg)
                || !(o.get(3) instanceof SassOperand.Other q) || !q.text().equals("TEX_HEADER_DIMENSION")) {
            throw machine.unimplemented(op);
        }
        int mask = o.size() == 7 && o.get(6) instanceof SassOperand.Imm m ? (int) m.bits() & 0xf : 0xf;
        int[] words;
        try {
            words = machine.launch.texture(handle(o, 4, t, w)).dimensions();
        } catch (IllegalArgumentException e) {
            throw new Stop(new Fault.InvalidExecution(machine.ref(t), op.where(), op.opcode() + ": " + e.getMessage()));
        }
        write(t, rd2, rd, mask, words);
    }

    /** The gathered channel of a TLD4: its {@code .R}, {@code .G}, {@code .B} or {@code .A}. */
    private String channel(SassOp op) {
        for (String c : List.of("R", "G", "B", "A")) {
            if (op.has(c)) {
                return c;
            }
        }
        throw machine.unimplemented(op);
    }

    /** The handle at operand {@code h}: a uniform register's low word, or the word at {@code c[0x0][4 off]}. */
    private long handle(List<SassOperand> o, int h, Thread t, Warp w) {
        return o.get(h) instanceof SassOperand.UReg u ? Integer.toUnsignedLong(w.ur[u.index()])
                : machine.operands.cbank(new SassOperand.CBank(0, -1, 4 * ((SassOperand.Imm) o.get(h + 1)).bits(), false,
                        false), t, 4);
    }

    /** The enabled channels of {@code mask}, packed: the first two into the pair Rd, the rest into Rd2 (RZ drops). */
    private static void write(Thread t, Reg rd2, Reg rd, int mask, int[] words) {
        int slot = 0;
        for (int k = 0; k < 4; k++) {
            if ((mask >>> k & 1) != 0) {
                Reg to = slot < 2 ? rd : rd2;
                if (to.index() != 255) {
                    t.r[to.index() + slot % 2] = words[k];
                }
                slot++;
            }
        }
    }

    void surface(SassOp op, Thread t, Warp w) {
        List<SassOperand> o = op.operands();
        boolean load = op.opcode().equals("SULD");
        boolean reduce = op.opcode().equals("SURED");
        int dims = op.has("3D") || op.has("2D_ARRAY") ? 3 : op.has("2D") || op.has("1D_ARRAY") ? 2 : op.has("1D") ? 1 : 0;
        boolean wide = op.has("U64") || op.has("S64");
        int size = op.has("64") || wide ? 8 : op.has("128") ? 16 : op.has("U8") || op.has("S8") ? 1
                : op.has("U16") || op.has("S16") ? 2 : 4;
        Texture.OutOfBounds mode = op.has("TRAP") ? Texture.OutOfBounds.TRAP
                : op.has("IGN") ? Texture.OutOfBounds.ZERO : Texture.OutOfBounds.CLAMP;
        if (dims == 0 || !op.has("D") || !op.has("BA") || o.size() != 4
                || !(o.get(load ? 1 : 0) instanceof SassOperand.Mem m) || !(o.get(load ? 0 : 1) instanceof Reg data)) {
            throw machine.unimplemented(op);
        }
        long handle = handle(o, 2, t, w);
        int[] coords = new int[dims];
        for (int d = 0; d < dims; d++) {
            coords[d] = m.reg() == 255 ? 0 : t.r[m.reg() + d];
        }
        long a;
        try {
            a = machine.launch.texture(handle).surfaceAddress(coords, size, mode);
        } catch (IllegalArgumentException e) {
            throw new Stop(new Fault.InvalidExecution(machine.ref(t), op.where(), op.opcode() + ": " + e.getMessage()));
        }
        int words = Math.max(1, size / 4);
        if (reduce) {
            if (a >= 0) {
                long v = wide ? reg(t, data, 0) & 0xffffffffL | (long) reg(t, data, 1) << 32 : reg(t, data, 0);
                long old = machine.launch.global().load(a, size);
                machine.launch.global().store(a, size, reduction(op).apply(old, v, op.has("S32") || op.has("S64"), size));
            }
            return;
        }
        for (int k = 0; k < words; k++) {
            if (load) {
                if (data.index() != 255) {
                    t.r[data.index() + k] = a < 0 ? 0 : (int) machine.launch.global().load(a + 4L * k, Math.min(size, 4));
                }
            } else if (a >= 0) {
                machine.launch.global().store(a + 4L * k, Math.min(size, 4), reg(t, data, k));
            }
        }
    }

    /** A SURED's operation: its {@code .ADD}, {@code .MIN}, ... modifier. */
    private SurfaceReduction reduction(SassOp op) {
        for (SurfaceReduction r : SurfaceReduction.values()) {
            if (op.has(r.name())) {
                return r;
            }
        }
        throw machine.unimplemented(op);
    }

    private static int reg(Thread t, Reg r, int k) {
        return r.index() == 255 ? 0 : t.r[r.index() + k];
    }
}
