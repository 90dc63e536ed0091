package org.jptxas.isel.codegen;

import java.util.ArrayList;
import java.util.List;

/**
 * A subroutine's code made ready to follow its owner in one section: its block labels get a prefix of their own
 * (every function numbers its blocks from 0), its jump tables' entries with them, and its first instruction carries
 * the subroutine's symbol.
 */
final class SubroutineLabels {
    private SubroutineLabels() {}

    static List<CodeLine> localize(List<CodeLine> code, String symbol, int index) {
        String first = code.isEmpty() ? null : code.get(0).label();
        String prefix = ".L_s" + index + "_";
        List<CodeLine> out = new ArrayList<>(code.size());
        for (int i = 0; i < code.size(); i++) {
            CodeLine c = code.get(i);
            String label = c.label() == null ? null : rename(c.label(), first, symbol, prefix);
            if (i == 0) {
                label = symbol;
            }
            String target = c.branchTarget();
            if (target != null && target.startsWith(".L")) {
                // a branch to a block: its line prints its op (only calls and addresses are relocated)
                c = c.withOp(c.op().retargeted(target, rename(target, first, symbol, prefix)));
            }
            JumpTables.Table table = c.jumpTable();
            if (table != null) { // its entries are blocks of the subroutine too
                List<String> entries = new ArrayList<>();
                for (String e : table.entries()) {
                    entries.add(rename(e, first, symbol, prefix));
                }
                table = new JumpTables.Table(table.offset(), entries);
            }
            out.add(new CodeLine(label, c.text(), c.assembly(), c.control(), c.symbol(), c.ptxLine(), c.op(), table,
                    c.returnPoint()));
        }
        return out;
    }

    private static String rename(String label, String first, String symbol, String prefix) {
        if (label.equals(first)) {
            return symbol;
        }
        return label.startsWith(".L_") ? prefix + label.substring(3) : label;
    }
}
