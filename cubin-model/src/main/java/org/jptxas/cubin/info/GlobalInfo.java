package org.jptxas.cubin.info;

import java.util.ArrayList;
import java.util.List;
import java.util.function.ToIntFunction;
import org.jptxas.cubin.FunctionFacts;

/**
 * The global .nv.info records ptxas 13 writes, in its order (checked on the corpus): functions in reverse section
 * order; for an executable REGCOUNT, the FRAME_SIZE of each inner function (last first), FRAME_SIZE, and after all
 * functions MIN_STACK_SIZE for each kernel in section order; for relocatable output REGCOUNT, MAX_STACK_SIZE and
 * FRAME_SIZE per function.
 */
public final class GlobalInfo {
    private GlobalInfo() {}

    static final int REGCOUNT = 0x2f;
    static final int FRAME_SIZE = 0x11;
    static final int MIN_STACK_SIZE = 0x12;
    static final int MAX_STACK_SIZE = 0x23;

    /** @param functions in section order; {@code symbol} maps a function (or inner function) name to its index */
    public static List<Attribute> records(List<FunctionFacts> functions, boolean relocatable, ToIntFunction<String> symbol) {
        List<Attribute> out = new ArrayList<>();
        for (int i = functions.size() - 1; i >= 0; i--) {
            FunctionFacts f = functions.get(i);
            int sym = symbol.applyAsInt(f.name());
            out.add(new Attribute.SymbolValue(REGCOUNT, sym, f.registers()));
            if (relocatable) {
                out.add(new Attribute.Words(MAX_STACK_SIZE, new int[] {sym, f.maxStackSize()}));
            } else {
                for (int k = f.inner().size() - 1; k >= 0; k--) {
                    FunctionFacts.InnerFunction in = f.inner().get(k);
                    out.add(new Attribute.SymbolValue(FRAME_SIZE, symbol.applyAsInt(in.name()), in.frameSize()));
                }
            }
            out.add(new Attribute.SymbolValue(FRAME_SIZE, sym, f.frameSize()));
        }
        if (!relocatable) {
            for (FunctionFacts f : functions) {
                if (f.entry()) {
                    out.add(new Attribute.SymbolValue(MIN_STACK_SIZE, symbol.applyAsInt(f.name()), f.minStackSize()));
                }
            }
        }
        return out;
    }
}
