package org.jptxas.isel.codegen;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jptxas.cubin.CubinBuilder;
import org.jptxas.ori.diag.CompilationException;
import org.jptxas.ori.ir.BasicBlock;
import org.jptxas.ori.ir.CBank;
import org.jptxas.ori.ir.Imm;
import org.jptxas.ori.ir.Instr;
import org.jptxas.ori.ir.OriFunction;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.RegFile;
import org.jptxas.ori.ir.Src;
import org.jptxas.ori.ir.Sym;
import org.jptxas.ori.opcode.OriOpcodes;

/**
 * Module variables' addresses as ptxas gives them to code: an 8-byte slot per (variable, addend) in constant bank 4,
 * relocated by the loader; {@code 32@lo(g)} reads {@code c[0x4][8*slot]} and {@code 32@hi(g)} {@code c[0x4][8*slot+4]}.
 * One table per module compilation (the slots are shared by its functions); {@link #pass()} rewrites a function's
 * {@link Sym} operands of global variables into those constant-bank operands.
 */
public final class AddressTable {
    public static final int BANK = 4;
    private final Map<CubinBuilder.BankAddress, Integer> slots = new LinkedHashMap<>();

    /** The slot of {@code symbol + addend}, allocated on first use. */
    public int slot(String symbol, long addend) {
        CubinBuilder.BankAddress key = new CubinBuilder.BankAddress(symbol, addend);
        Integer slot = slots.get(key);
        if (slot == null) {
            slot = slots.size();
            slots.put(key, slot);
        }
        return slot;
    }

    public List<CubinBuilder.BankAddress> slots() {
        return new ArrayList<>(slots.keySet());
    }

    /** The rewriting stage ("addrtable"), run after the optimizer and before legalisation. */
    public static OriPass pass() {
        return OriPass.of("addrtable", AddressTable::rewrite);
    }

    static void rewrite(OriFunction f, CodegenContext cx) throws CompilationException {
        AddressTable table = cx.addressTable();
        // indexed loops: in C1-compiled code (the compile server's) a for-each iterator allocates per block
        List<BasicBlock> blocks = f.body().blocks();
        for (int bi = 0; bi < blocks.size(); bi++) {
            BasicBlock b = blocks.get(bi);
            if (!cx.options().relocatable()) {
                systemCalls(b, table, f);
            }
            List<Instr> instrs = b.instrs();
            for (int ii = 0; ii < instrs.size(); ii++) {
                Instr in = instrs.get(ii);
                List<Src> srcs = in.srcs();
                for (int i = 0; i < srcs.size(); i++) {
                    Src s = srcs.get(i);
                    if (s.value() instanceof Sym sym && sym.kind() == Sym.Kind.GLOBAL && sym.part() != Sym.Part.WHOLE) {
                        int offset = 8 * table.slot(sym.name(), sym.addend()) + (sym.part() == Sym.Part.HI32 ? 4 : 0);
                        srcs.set(i, new Src(CBank.of(BANK, offset), s.neg(), s.abs(), s.not()));
                    }
                }
            }
        }
    }

    /** The register pair a whole-program system call jumps through (ptxas's choice: R2, callee-saved, and R3). */
    static final int SYSTEM_CALL_TARGET = 2;

    /**
     * A whole-program compilation calls the driver's functions ({@code vprintf}, {@code malloc}, ...) through their
     * addresses, which the loader writes into a constant-bank-4 slot (relocated R_CUDA_64 against the undefined
     * function symbol), as ptxas 13 does: {@code MOV Ri, slot; LDC.64 R2, c[0x4][Ri]; ...; CALL.ABS.NOINC R2}. Every
     * {@code CALL.ABS} to a function symbol in {@code b} (only system calls stay such calls without {@code -c}) becomes
     * that load into {@code R2}/{@code R3} and a call through the pair; {@link CallFrames} adds the return address
     * ({@code LEPC}).
     */
    private static void systemCalls(BasicBlock b, AddressTable table, OriFunction f) {
        OriOpcodes ops = OriOpcodes.get();
        List<Instr> is = b.instrs();
        for (int i = 0; i < is.size(); i++) {
            Instr call = is.get(i);
            if (!isAbsoluteCall(call) || !(call.srcs().get(0).value() instanceof Sym callee)) {
                continue;
            }
            Reg index = f.body().newVirtual(RegFile.R, 1);
            Reg address = Reg.phys(RegFile.R, SYSTEM_CALL_TARGET, 2);
            List<Instr> load = new ArrayList<>();
            load.add(new Instr(ops.require("MOV"), List.of(), List.of(index),
                    List.of(Src.of(Imm.ofInt(8 * table.slot(callee.name(), 0)))), call.guard(), call.line()));
            load.add(new Instr(ops.require("LDC"), List.of("64"), List.of(address),
                    List.of(Src.of(new CBank(BANK, 0, index))), call.guard(), call.line()));
            List<Src> srcs = new ArrayList<>();
            srcs.add(Src.of(address));
            srcs.addAll(call.srcs().subList(1, call.srcs().size()));
            is.set(i, new Instr(call.op(), call.mods(), call.dsts(), srcs, call.guard(), call.line()));
            is.addAll(i, load);
            i += load.size();
        }
    }

    /** Whether {@code in} is a call of the ABI ({@code CALL.ABS.NOINC}) to a function outside the module. */
    static boolean isAbsoluteCall(Instr in) {
        return in.op().name().equals("CALL") && in.hasMod("ABS") && !in.srcs().isEmpty();
    }
}
