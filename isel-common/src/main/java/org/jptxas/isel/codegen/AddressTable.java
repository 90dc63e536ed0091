package org.jptxas.isel.codegen;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jptxas.isel.cubin.CubinBuilder;
import org.jptxas.ori.diag.CompilationException;
import org.jptxas.ori.ir.BasicBlock;
import org.jptxas.ori.ir.CBank;
import org.jptxas.ori.ir.Instr;
import org.jptxas.ori.ir.OriFunction;
import org.jptxas.ori.ir.Src;
import org.jptxas.ori.ir.Sym;

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
        return slots.computeIfAbsent(new CubinBuilder.BankAddress(symbol, addend), k -> slots.size());
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
        for (BasicBlock b : f.body().blocks()) {
            for (Instr in : b.instrs()) {
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
}
