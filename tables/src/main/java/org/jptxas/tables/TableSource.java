package org.jptxas.tables;

import java.io.IOException;
import java.io.InputStream;
import java.util.Objects;

/**
 * Where a set of tables lives: a folder of class-path resources seen through one class's loader. A backend reads its
 * own tables through its own jar ({@code TableSource.of(Sm80Backend.class, "/org/jptxas/backend/sm80/")}), so a plugin
 * jar's tables are found wherever the jar is loaded from. Names starting with {@code /} are absolute resource paths
 * (the shared family tables of the {@code tables} jar); others are relative to {@code root}.
 */
public record TableSource(Class<?> anchor, String root) {
    /** The tables bundled in the {@code tables} jar. */
    public static final TableSource SHARED = new TableSource(TableLoader.class, TableLoader.RESOURCE_ROOT);

    public TableSource {
        Objects.requireNonNull(anchor, "anchor");
        Objects.requireNonNull(root, "root");
        if (!root.startsWith("/") || !root.endsWith("/")) {
            throw new IllegalArgumentException("table root must be an absolute resource folder: " + root);
        }
    }

    public static TableSource of(Class<?> anchor, String root) {
        return new TableSource(anchor, root);
    }

    /** The absolute resource path of {@code name}. */
    public String path(String name) {
        return name.startsWith("/") ? name : root + name;
    }

    public boolean exists(String name) {
        return anchor.getResource(path(name)) != null;
    }

    /** Loads a table strictly, as {@link TableLoader#read} does; the messages name its resource path. */
    public <T> T load(String name, Class<T> type) {
        String path = path(name);
        try (InputStream in = anchor.getResourceAsStream(path)) {
            if (in == null) {
                throw new TableException(path, "", "no such table on the class path of " + anchor.getName(), null);
            }
            return TableLoader.read(path, in, type);
        } catch (IOException e) {
            throw new TableException(path, "", "cannot be read: " + e.getMessage(), e);
        }
    }

    /** A source for names relative to {@code name}'s folder (an overlay naming its base next to it). */
    public TableSource folderOf(String name) {
        String p = path(name);
        return new TableSource(anchor, p.substring(0, p.lastIndexOf('/') + 1));
    }
}
