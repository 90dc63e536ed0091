package org.jptxas.frontend.ptx.parse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The JVM leaves a method of more than 8000 bytes of bytecode to the interpreter (HotSpot's DontCompileHugeMethods),
 * whatever its call count: the lexer's NFA step, which runs for nearly every character of the input, once grew past
 * that (a token of many literal alternatives adds one NFA state per character) and the lexer ran several times
 * slower. This reads the generated classes' method sizes from their class files.
 */
class GeneratedMethodSizeTest {
    /** HotSpot's HugeMethodLimit. */
    private static final int HUGE = 8000;

    @Test
    void noGeneratedLexerOrParserMethodIsTooLargeToCompile() throws IOException {
        for (Class<?> c : List.of(PtxGrammarTokenManager.class, PtxGrammar.class)) {
            for (MethodSize m : methodSizes(c)) {
                assertTrue(m.bytes() <= HUGE, c.getSimpleName() + "." + m.name() + " has " + m.bytes()
                        + " bytes of bytecode, more than the JIT compiles (" + HUGE + ")");
            }
        }
    }

    @Test
    void readsTheSizesOfTheLexersMethods() throws IOException {
        List<MethodSize> sizes = methodSizes(PtxGrammarTokenManager.class);
        MethodSize nfa = sizes.stream().filter(m -> m.name().equals("jjMoveNfa_0")).findFirst().orElseThrow();
        assertTrue(nfa.bytes() > 1000, "the NFA step is the lexer's largest method: " + nfa);
        assertEquals(sizes.stream().mapToInt(MethodSize::bytes).max().orElseThrow(), nfa.bytes());
    }

    record MethodSize(String name, int bytes) {}

    /** The length of each method's Code attribute (JVMS 4.7.3), read from the class file. */
    static List<MethodSize> methodSizes(Class<?> c) throws IOException {
        try (InputStream raw = c.getResourceAsStream(c.getSimpleName() + ".class");
             DataInputStream in = new DataInputStream(raw)) {
            in.readInt(); // magic
            in.readUnsignedShort();
            in.readUnsignedShort();
            int count = in.readUnsignedShort();
            String[] utf8 = new String[count];
            for (int i = 1; i < count; i++) {
                int tag = in.readUnsignedByte();
                switch (tag) {
                    case 1 -> utf8[i] = in.readUTF();
                    case 3, 4 -> in.skipBytes(4);
                    case 5, 6 -> {
                        in.skipBytes(8);
                        i++; // a long or double takes two entries
                    }
                    case 7, 8, 16, 19, 20 -> in.skipBytes(2);
                    case 9, 10, 11, 12, 17, 18 -> in.skipBytes(4);
                    case 15 -> in.skipBytes(3);
                    default -> throw new IOException("constant pool tag " + tag);
                }
            }
            in.skipBytes(6); // access flags, this class, super class
            in.skipBytes(2 * in.readUnsignedShort()); // interfaces
            members(in, utf8, null); // fields
            List<MethodSize> out = new ArrayList<>();
            members(in, utf8, out);
            return out;
        }
    }

    private static void members(DataInputStream in, String[] utf8, List<MethodSize> out) throws IOException {
        int count = in.readUnsignedShort();
        for (int m = 0; m < count; m++) {
            in.skipBytes(2);
            String name = utf8[in.readUnsignedShort()];
            in.skipBytes(2);
            int attributes = in.readUnsignedShort();
            for (int a = 0; a < attributes; a++) {
                String attribute = utf8[in.readUnsignedShort()];
                int length = in.readInt();
                if (out != null && attribute.equals("Code")) {
                    in.skipBytes(4); // max stack, max locals
                    out.add(new MethodSize(name, in.readInt()));
                    in.skipBytes(length - 8);
                } else {
                    in.skipBytes(length);
                }
            }
        }
    }
}
