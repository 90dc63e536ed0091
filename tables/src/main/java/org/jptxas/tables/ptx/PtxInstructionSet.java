package org.jptxas.tables.ptx;

import java.io.InputStream;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.jptxas.tables.TableException;
import org.jptxas.tables.TableLoader;

/**
 * The PTX instruction table, read from {@code ptx-instructions.json} and compiled into typed forms. Immutable; the
 * bundled table is loaded once ({@link #bundled()}).
 */
public final class PtxInstructionSet {
    private final Map<String, InstructionDef> instructions;
    private final Set<String> modifierWords;
    private final Map<String, ModifierKind> kindOfWord;
    private final Map<String, List<WordGate>> wordGates;

    private PtxInstructionSet(Map<String, InstructionDef> instructions, Set<String> modifierWords,
            Map<String, ModifierKind> kindOfWord, Map<String, List<WordGate>> wordGates) {
        this.wordGates = Map.copyOf(wordGates);
        this.instructions = Collections.unmodifiableMap(instructions);
        this.modifierWords = Collections.unmodifiableSet(modifierWords);
        this.kindOfWord = Collections.unmodifiableMap(kindOfWord);
    }

    private static final class Holder {
        static final PtxInstructionSet BUNDLED =
                compile(PtxInstructionTable.FILE, TableLoader.load(PtxInstructionTable.FILE, PtxInstructionTable.class));
    }

    /** The bundled table. */
    public static PtxInstructionSet bundled() {
        return Holder.BUNDLED;
    }

    /** Reads and compiles a table from a stream; every problem is a {@link TableException} naming file and entry. */
    public static PtxInstructionSet read(String file, InputStream in) {
        return compile(file, TableLoader.read(file, in, PtxInstructionTable.class));
    }

    static PtxInstructionSet compile(String file, PtxInstructionTable table) {
        Map<String, Set<PtxType>> typeSets = new HashMap<>();
        for (Map.Entry<String, String> e : new TreeMap<>(table.typeSets()).entrySet()) {
            Set<PtxType> set = EnumSet.noneOf(PtxType.class);
            for (String t : e.getValue().trim().split("\\s+")) {
                set.add(PtxType.of(t).orElseThrow(
                        () -> new TableException(file, "typeSets." + e.getKey(), "unknown type '" + t + "'", null)));
            }
            typeSets.put(e.getKey(), set);
        }
        Map<String, ModifierKind> kindOfWord = new HashMap<>();
        Set<String> words = new TreeSet<>();
        for (Map.Entry<String, PtxInstructionTable.GroupEntry> e : new TreeMap<>(table.groups()).entrySet()) {
            for (String w : e.getValue().words().trim().split("\\s+")) {
                if (PtxType.of(w).isPresent()) {
                    throw new TableException(file, "groups." + e.getKey(), "'" + w + "' is a type, not a modifier", null);
                }
                ModifierKind k = e.getValue().kind();
                ModifierKind before = kindOfWord.putIfAbsent(w, k);
                if (before != null && before != k && before == ModifierKind.OTHER) {
                    kindOfWord.put(w, k);
                }
                words.add(w);
            }
        }
        FormParser parser = new FormParser(table.groups(), typeSets, kindOfWord, table.targetSets());
        Map<String, InstructionDef> defs = new TreeMap<>();
        for (Map.Entry<String, List<String>> e : new TreeMap<>(table.instructions()).entrySet()) {
            String opcode = e.getKey();
            if (!opcode.matches("[a-z][a-z0-9_]*(\\.[a-z0-9_:]+)*")) {
                throw new TableException(file, "instructions." + opcode, "not an opcode name", null);
            }
            List<InstructionForm> forms = new ArrayList<>();
            for (int i = 0; i < e.getValue().size(); i++) {
                try {
                    InstructionForm f = parser.parse(opcode, e.getValue().get(i));
                    forms.add(f);
                    f.modifiers().forEach(m -> words.addAll(m.words()));
                } catch (IllegalArgumentException ex) {
                    throw new TableException(file, "instructions." + opcode + "[" + i + "]", ex.getMessage(), ex);
                }
            }
            if (forms.isEmpty()) {
                throw new TableException(file, "instructions." + opcode, "instruction has no form", null);
            }
            defs.put(opcode, new InstructionDef(opcode, forms));
        }
        Map<String, List<WordGate>> wordGates = new HashMap<>();
        for (Map.Entry<String, List<String>> e : new TreeMap<>(table.wordGates()).entrySet()) {
            List<WordGate> gates = new ArrayList<>();
            for (String text : e.getValue()) {
                try {
                    gates.add(WordGate.parse(e.getKey(), text));
                } catch (IllegalArgumentException ex) {
                    throw new TableException(file, "wordGates." + e.getKey(), ex.getMessage(), ex);
                }
            }
            wordGates.put(e.getKey(), List.copyOf(gates));
        }
        return new PtxInstructionSet(defs, words, kindOfWord, wordGates);
    }

    /** The gates of a modifier or type word on every instruction, in the order ptxas checks them; empty for most. */
    public List<WordGate> wordGates(String word) {
        return wordGates.getOrDefault(word, List.of());
    }

    /** Instructions by opcode, sorted by name. */
    public Map<String, InstructionDef> instructions() {
        return instructions;
    }

    public InstructionDef instruction(String opcode) {
        return instructions.get(opcode);
    }

    /** Every modifier word any instruction takes. */
    public boolean isModifierWord(String word) {
        return modifierWords.contains(word);
    }

    /** The kind of a modifier word from the shared groups ({@link ModifierKind#OTHER} for the rest). */
    public ModifierKind kindOf(String word) {
        return kindOfWord.getOrDefault(word, ModifierKind.OTHER);
    }
}
