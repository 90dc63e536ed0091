package org.jptxas.ori.opt;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jptxas.ori.analysis.Cfg;
import org.jptxas.ori.analysis.Divergence;
import org.jptxas.ori.analysis.PostDominators;
import org.jptxas.ori.analysis.SingleDefs;
import org.jptxas.ori.ir.Addr;
import org.jptxas.ori.ir.BasicBlock;
import org.jptxas.ori.ir.FunctionBody;
import org.jptxas.ori.ir.Guard;
import org.jptxas.ori.ir.Instr;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.RegFile;
import org.jptxas.ori.ir.SpecialReg;
import org.jptxas.ori.ir.Src;

/**
 * Warp-aggregated global atomics, as ptxas compiles them from sm_80 on: a 32-bit integer atomic whose result is
 * unused and whose address is the same in every thread of the warp becomes one warp reduction ({@code REDUX}) and
 * one {@code RED} from the first active lane, instead of 32 atomics to one address that the memory system
 * serializes. The leader ({@code VOTEU.ANY}, {@code UFLO}, lane id compare) is chosen once per block: the active
 * threads do not change inside a block.
 */
public final class AtomicAggregation implements Pass {
    /** The atomic's operation modifier and the REDUX modifiers for it (signedness added for MIN/MAX). */
    private static final Map<String, List<String>> REDUCTIONS = Map.of("ADD", List.of("SUM"), "MIN", List.of("MIN"),
            "MAX", List.of("MAX"), "AND", List.of(), "OR", List.of("OR"), "XOR", List.of("XOR"));

    /** Modifiers that may come with the operation: the descriptor form, signedness, relaxed ordering and scope. */
    private static final Set<String> PLAIN = Set.of("E", "S32", "STRONG", "GPU");

    @Override
    public String name() {
        return "atomagg";
    }

    @Override
    public boolean run(FunctionBody body, OptContext cx) {
        if (!cx.hasWarpRedux() || !cx.hasUniformDatapath()) {
            return false;
        }
        Cfg cfg = Cfg.of(body);
        Divergence div = null;
        SingleDefs sd = null;
        boolean changed = false;
        for (BasicBlock b : body.blocks()) {
            Reg leader = null;
            List<Instr> ins = b.instrs();
            for (int i = 0; i < ins.size(); i++) {
                Instr at = ins.get(i);
                List<String> redux = reduction(at);
                if (redux == null) {
                    continue;
                }
                if (div == null) {
                    div = new Divergence(body, cfg, new PostDominators(cfg));
                    sd = new SingleDefs(body);
                }
                Reg result = at.dsts().get(1);
                Addr addr = (Addr) at.srcs().get(0).value();
                if (!result.virtual() || !sd.uses(result).isEmpty() || div.isDivergent(addr.base())
                        || addr.uniformBase() != null && div.isDivergent(addr.uniformBase())) {
                    continue;
                }
                List<Instr> before = new ArrayList<>();
                Reg p = leader;
                if (p == null) {
                    Reg active = body.newVirtual(RegFile.UR, 1);
                    Reg first = body.newVirtual(RegFile.UR, 1);
                    Reg lane = body.newVirtual(RegFile.R, 1);
                    p = body.newVirtual(RegFile.P, 1);
                    before.add(instr("VOTEU", List.of("ANY"), List.of(active, Reg.UPT), List.of(Src.of(Reg.PT)), at));
                    before.add(instr("UFLO", List.of("U32"), List.of(first), List.of(Src.of(active)), at));
                    before.add(instr("S2R", List.of(), List.of(lane), List.of(Src.of(new SpecialReg("SR_LANEID"))),
                            at));
                    before.add(instr("ISETP", List.of("EQ", "U32", "AND"), List.of(p, Reg.PT),
                            List.of(Src.of(lane), Src.of(first), Src.of(Reg.PT)), at));
                }
                Reg sum = body.newVirtual(RegFile.UR, 1);
                Reg value = body.newVirtual(RegFile.R, 1);
                before.add(instr("REDUX", redux, List.of(sum), List.of(at.srcs().get(1)), at));
                before.add(instr("MOV", List.of(), List.of(value), List.of(Src.of(sum)), at));
                Instr red = guardedRed(at, addr, value, p, sd, cx);
                if (red == null || !encodable(before, cx)) {
                    continue;
                }
                ins.set(i, red);
                ins.addAll(i, before);
                i += before.size();
                leader = p;
                changed = true;
            }
        }
        return changed;
    }

    /** The REDUX modifiers for an unguarded 32-bit integer ATOMG of an aggregatable operation, or null. */
    private static List<String> reduction(Instr at) {
        if (!OpInfo.is(at, "ATOMG") || !at.guard().isAlways() || at.dsts().size() != 2 || at.srcs().size() != 2
                || !(at.srcs().get(0).value() instanceof Addr) || !(at.srcs().get(1).value() instanceof Reg v)
                || v.comps() != 1 || at.srcs().get(1).hasModifiers()) {
            return null;
        }
        String op = null;
        for (String m : at.mods()) {
            if (REDUCTIONS.containsKey(m) && op == null) {
                op = m;
            } else if (!PLAIN.contains(m)) {
                return null;
            }
        }
        if (op == null) {
            return null;
        }
        List<String> mods = new ArrayList<>(REDUCTIONS.get(op));
        if (at.mods().contains("S32") && (op.equals("MIN") || op.equals("MAX"))) {
            mods.add("S32");
        } else if (at.mods().contains("S32")) {
            return null;
        }
        return mods;
    }

    /**
     * {@code @p RED [addr], value}, the address's constant moved into the offset when only that form encodes
     * (guarded forms are known as ptxas writes them: its aggregated REDs read {@code [R.64+0x8]}); null if none does.
     */
    private static Instr guardedRed(Instr at, Addr addr, Reg value, Reg p, SingleDefs sd, OptContext cx) {
        for (Addr a = addr; a != null; a = a.base().comps() == 2 && !a.base().isPart()
                ? AddressModeFolding.fold64(a, sd) : null) {
            Instr red = new Instr(OpInfo.op("RED"), at.mods(), List.of(), List.of(Src.of(a), Src.of(value)),
                    new Guard(p, false), at.line());
            if (encodable(List.of(red), cx)) {
                return red;
            }
        }
        return null;
    }

    private static Instr instr(String op, List<String> mods, List<Reg> dsts, List<Src> srcs, Instr at) {
        return new Instr(OpInfo.op(op), mods, dsts, srcs, Guard.ALWAYS, at.line());
    }

    private static boolean encodable(List<Instr> list, OptContext cx) {
        for (Instr in : list) {
            if (!cx.canEncode(in).orElse(false)) {
                return false;
            }
        }
        return true;
    }
}
