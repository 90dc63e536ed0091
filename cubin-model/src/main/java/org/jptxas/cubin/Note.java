package org.jptxas.cubin;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * One ELF note ({@code .note.nv.tkinfo}, {@code .note.nv.cuinfo}): owner, type, descriptor. Both are owned by
 * "NVIDIA Corp"; cuinfo (type 1000) holds {@code [u16 2][u16 virtual SM][u32 CUDA API version]}, tkinfo (type 2000)
 * a version word, a zero word, four string offsets and the string area (tool, toolkit, build, options).
 */
public record Note(String owner, int type, byte[] descriptor) {
    public static final int NT_CUDA_CUINFO = 1000;
    public static final int NT_CUDA_TKINFO = 2000;

    public Note {
        descriptor = descriptor.clone();
    }

    @Override
    public byte[] descriptor() {
        return descriptor.clone();
    }

    public static List<Note> decode(Section s) {
        byte[] b = s.data();
        ByteReader in = new ByteReader(b, "section " + s.name());
        List<Note> out = new ArrayList<>();
        int at = 0;
        while (at < b.length) {
            int namesz = in.u32(at, "namesz");
            int descsz = in.u32(at + 4, "descsz");
            int type = in.u32(at + 8, "type");
            at += 12;
            byte[] name = in.slice(at, namesz, "note name");
            at += align4(namesz);
            byte[] desc = in.slice(at, descsz, "note descriptor");
            at += align4(descsz);
            int len = name.length > 0 && name[name.length - 1] == 0 ? name.length - 1 : name.length;
            out.add(new Note(new String(name, 0, len, StandardCharsets.UTF_8), type, desc));
        }
        return out;
    }

    public static byte[] encode(List<Note> notes) {
        ByteWriter w = new ByteWriter();
        for (Note n : notes) {
            byte[] name = (n.owner + "\0").getBytes(StandardCharsets.UTF_8);
            w.u32(name.length).u32(n.descriptor.length).u32(n.type).bytes(name).padTo(align4(w.size()));
            w.bytes(n.descriptor).padTo(align4(w.size()));
        }
        return w.toByteArray();
    }

    private static int align4(int n) {
        return (n + 3) & ~3;
    }

    /** The cuinfo descriptor ptxas writes: note version 2, the virtual SM, the CUDA API version (e.g. 130). */
    public static Note cuinfo(int virtualSm, int cudaApiVersion) {
        return new Note("NVIDIA Corp", NT_CUDA_CUINFO, new ByteWriter().u16(2).u16(virtualSm).u32(cudaApiVersion).toByteArray());
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Note n && n.owner.equals(owner) && n.type == type && Arrays.equals(n.descriptor, descriptor);
    }

    @Override
    public int hashCode() {
        return owner.hashCode() * 31 + type;
    }
}
