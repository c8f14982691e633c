package io.dpone.backfill.targets.mssql.doctor;

/**
 * A feature of the live table the shadow does not reproduce, so that publishing would silently drop it: doctor refuses
 * the table before anything is created, naming the feature and where it is. {@code sql} lists the columns or indexes
 * that use it ({@code ?} = the live table's object_id); {@code requiredColumn} is a sys.columns column the query needs,
 * absent on servers that predate the feature (COL_LENGTH is then NULL and the server has no such tables).
 * Catalog sources (MicrosoftDocs/sql-docs docs/relational-databases/system-catalog-views/): sys-columns (is_masked,
 * encryption_type), sys-data-spaces (type PS = partition scheme), sys-indexes, sys-partitions (data_compression_desc).
 */
enum MssqlRefusedFeature {
    DYNAMIC_DATA_MASKING("target.table.masked-columns", "is_masked",
            "SELECT c.name FROM sys.columns AS c WHERE c.object_id = ? AND c.is_masked = 1 ORDER BY c.column_id",
            "dynamic data masking on columns", "the shadow is created without masks, so publication would show the"
                    + " masked values unmasked to every user without UNMASK",
            "Drop the masks for the campaign and re-add them on the published table before anyone reads it, or load"
                    + " another table; the adapter never publishes masked columns unmasked."),
    ALWAYS_ENCRYPTED("target.table.encrypted-columns", "encryption_type",
            "SELECT c.name FROM sys.columns AS c WHERE c.object_id = ? AND c.encryption_type IS NOT NULL"
                    + " ORDER BY c.column_id",
            "Always Encrypted columns", "the loader writes plain values through a connection without column encryption,"
                    + " so the published table would hold them in plain text",
            "Load a table without Always Encrypted columns; the adapter never writes plain text into them."),
    PARTITIONING("target.table.partitioned", null,
            "SELECT COALESCE(i.name, N'(heap)') FROM sys.indexes AS i JOIN sys.data_spaces AS ds"
                    + " ON ds.data_space_id = i.data_space_id WHERE i.object_id = ? AND ds.type = 'PS' ORDER BY i.index_id",
            "a partitioned table or index", "the shadow is created on one filegroup, unpartitioned, and its keys"
                    + " would lose the partition alignment",
            "Load a non-partitioned table, or switch the loaded table into the partitioned one yourself after"
                    + " publication."),
    DATA_COMPRESSION("target.table.compression", null,
            "SELECT DISTINCT COALESCE(i.name, N'(heap)') + N' ' + p.data_compression_desc FROM sys.partitions AS p"
                    + " JOIN sys.indexes AS i ON i.object_id = p.object_id AND i.index_id = p.index_id"
                    + " WHERE p.object_id = ? AND p.data_compression_desc NOT IN (N'NONE', N'COLUMNSTORE')",
            "data compression (ROW, PAGE or COLUMNSTORE_ARCHIVE)", "the shadow and its indexes"
                    + " are built without it, so the published table would grow by the compression ratio",
            "Remove the compression for the campaign and rebuild the published table's indexes WITH"
                    + " (DATA_COMPRESSION = ...) afterwards, or load another table.");

    private final String code;
    private final String requiredColumn;
    private final String sql;
    private final String feature;
    private final String consequence;
    private final String action;

    MssqlRefusedFeature(String code, String requiredColumn, String sql, String feature, String consequence, String action) {
        this.code = code;
        this.requiredColumn = requiredColumn;
        this.sql = sql;
        this.feature = feature;
        this.consequence = consequence;
        this.action = action;
    }

    String code() {
        return code;
    }

    String requiredColumn() {
        return requiredColumn;
    }

    String sql() {
        return sql;
    }

    String feature() {
        return feature;
    }

    String consequence() {
        return consequence;
    }

    String action() {
        return action;
    }
}
