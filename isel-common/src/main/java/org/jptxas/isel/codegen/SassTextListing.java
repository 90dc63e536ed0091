package org.jptxas.isel.codegen;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.commons.lang3.StringUtils;

/**
 * jptxas's own SASS text of a module ({@code --out-sass}), in the layout of {@code nvdisasm -c}'s instruction lines:
 * {@code /*addr*}{@code /}, a P-register guard right-aligned in 18 columns, the instruction, {@code " ;"} (no blank
 * before it on the closing self-branch and the padding NOPs), branch targets named {@code .L_x_N} in order of first
 * reference across the module, and a {@code .text.<name>:} line before each function. After its last instruction
 * each function gets its end label, numbered (as nvdisasm does) after every branch label of the module, in the
 * cubin's symbol order (kernels declared without {@code .visible} and functions placed inside another's code, then
 * device functions, then the other kernels).
 */
public final class SassTextListing {
    private SassTextListing() {}

    /** @param hiddenEntries kernels declared without {@code .visible}: local symbols, listed first in the cubin */
    public static String render(List<CompiledFunction> functions, java.util.Set<String> hiddenEntries) {
        // nvdisasm names the return points of relocated calls (32@lo((f + .L_x_0@srel))) of every function first,
        // then the branch targets of every function
        Map<CompiledFunction, Map<String, String>> labelNames = new java.util.IdentityHashMap<>();
        int[] counter = {0};
        for (CompiledFunction f : functions) {
            labelNames.put(f, new HashMap<>());
            nameLabels(f, f.code().stream().map(CodeLine::returnPoint), counter, labelNames.get(f));
        }
        for (CompiledFunction f : functions) {
            nameLabels(f, f.code().stream().map(CodeLine::branchTarget), counter, labelNames.get(f));
        }
        int branchLabels = counter[0];
        List<String> symbolOrder = new java.util.ArrayList<>();
        // local symbols (hidden kernels, subroutines inside a function's section) come first in the symbol table
        // (the last subroutine runs to its section's end and shares the section's end label)
        boolean[] hidden = new boolean[functions.size()];
        for (int i = 0; i < functions.size(); i++) {
            var facts = functions.get(i).facts();
            hidden[i] = facts.entry() && hiddenEntries.contains(facts.name());
            if (hidden[i]) {
                symbolOrder.add(facts.name());
            }
            facts.inner().forEach(in -> symbolOrder.add(in.name()));
        }
        functions.stream().filter(f -> !f.facts().entry()).forEach(f -> symbolOrder.add(f.facts().name()));
        for (int i = 0; i < functions.size(); i++) {
            if (functions.get(i).facts().entry() && !hidden[i]) {
                symbolOrder.add(functions.get(i).facts().name());
            }
        }
        StringBuilder sb = new StringBuilder();
        for (CompiledFunction f : functions) {
            List<CodeLine> code = f.code();
            Map<String, Integer> address = new HashMap<>();
            for (int i = 0; i < code.size(); i++) {
                if (code.get(i).label() != null) {
                    address.put(code.get(i).label(), i);
                }
            }
            Map<String, String> names = labelNames.get(f);
            sb.append(".text.").append(f.facts().name()).append(":\n");
            if (hiddenEntries.contains(f.facts().name()) && f.facts().entry()) {
                // nvdisasm labels a local kernel symbol like a function placed inside the code
                symbolHeader(sb, f.facts().name(), ".L_x_" + (branchLabels + sectionEnd(f, symbolOrder)));
            }
            boolean padding = false;
            for (int i = 0; i < code.size(); i++) {
                CodeLine l = code.get(i);
                var inner = innerAt(f, i);
                if (inner != null) {
                    var after = innerAt(f, i, 1);
                    String end = after != null ? after.name() : ".L_x_" + (branchLabels + sectionEnd(f, symbolOrder));
                    symbolHeader(sb, inner.name(), end);
                } else if (l.label() != null && names.containsKey(l.label()) && i != 0) {
                    sb.append(names.get(l.label())).append(":\n");
                }
                String text = l.text();
                String t = l.branchTarget();
                if (t != null && names.containsKey(t)) {
                    text = text.replace("`(" + t + ")", "`(" + names.get(t) + ")");
                }
                String r = l.returnPoint();
                if (r != null && names.containsKey(r)) {
                    text = text.replace("+ " + r + CallFrames.SECTION_RELATIVE, "+ " + names.get(r) + CallFrames.SECTION_RELATIVE);
                }
                String guard = "";
                if (text.startsWith("@P") || text.startsWith("@!P")) {
                    int sp = text.indexOf(' ');
                    guard = text.substring(0, sp);
                    text = text.substring(sp + 1);
                }
                padding = FunctionLayout.isPadding(l) && (padding || l.mnemonic().equals("BRA"));
                sb.append(String.format("        /*%04x*/", i * FunctionLayout.INSTRUCTION_BYTES))
                        .append(StringUtils.leftPad(guard, 18)).append(' ').append(text)
                        .append(padding ? ";" : " ;").append('\n');
            }
            sb.append(".L_x_").append(branchLabels + sectionEnd(f, symbolOrder)).append(":\n");
        }
        return sb.toString();
    }

    /** nvdisasm's lines for a function symbol inside a section: {@code .type}, {@code .size} up to {@code end}, label. */
    private static void symbolHeader(StringBuilder sb, String name, String end) {
        sb.append("        .type           ").append(name).append(",@function\n")
                .append("        .size           ").append(name).append(",(").append(end).append(" - ").append(name)
                .append(")\n").append(name).append(":\n");
    }

    /**
     * The symbol whose end label is {@code f}'s section end: the first in symbol order of those running to the
     * section's end (the function and its last inner function).
     */
    private static int sectionEnd(CompiledFunction f, List<String> symbolOrder) {
        List<org.jptxas.cubin.FunctionFacts.InnerFunction> inner = f.facts().inner();
        int own = symbolOrder.indexOf(f.facts().name());
        return inner.isEmpty() ? own : Math.min(own, symbolOrder.indexOf(inner.get(inner.size() - 1).name()));
    }

    /** Names the labels of {@code f} in {@code referenced} (in order; null entries skipped) not named yet. */
    private static void nameLabels(CompiledFunction f, java.util.stream.Stream<String> referenced, int[] counter,
            Map<String, String> names) {
        List<CodeLine> code = f.code();
        Map<String, Integer> address = new HashMap<>();
        for (int i = 0; i < code.size(); i++) {
            if (code.get(i).label() != null) {
                address.put(code.get(i).label(), i);
            }
        }
        for (String t : referenced.filter(java.util.Objects::nonNull).toList()) {
            if (address.containsKey(t) && !names.containsKey(t)) {
                var inner = innerAt(f, address.get(t));
                names.put(t, address.get(t) == 0 ? f.facts().name() : inner != null ? inner.name() : ".L_x_" + counter[0]++);
            }
        }
    }


    /** The subroutine of {@code f} starting at instruction {@code index}, or null. */
    private static org.jptxas.cubin.FunctionFacts.InnerFunction innerAt(CompiledFunction f, int index) {
        return innerAt(f, index, 0);
    }

    /** The subroutine {@code skip} places after the one starting at instruction {@code index}, or null. */
    private static org.jptxas.cubin.FunctionFacts.InnerFunction innerAt(CompiledFunction f, int index, int skip) {
        List<org.jptxas.cubin.FunctionFacts.InnerFunction> inner = f.facts().inner();
        for (int k = 0; k < inner.size(); k++) {
            if (inner.get(k).offset() == (long) index * FunctionLayout.INSTRUCTION_BYTES) {
                return k + skip < inner.size() ? inner.get(k + skip) : null;
            }
        }
        return null;
    }
}
