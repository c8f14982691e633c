package io.dpone.backfill.core.publish;

/** What a lane and the engine read of the target's catalog: table shapes, nothing that changes a table. */
public interface TargetCatalog {
    /** Catalog shape of a table in the target (columns only); an empty shape when it does not exist. */
    TableShape shape(String schema, String table);

    /**
     * The reviewed live target's full shape: columns with defaults, generated and identity flags, plus its
     * constraints and indexes; what preparation records and every chunk and the swap compare against.
     */
    TableShape liveShape(String schema, String table);
}
