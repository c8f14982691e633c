package io.dpone.backfill.targets.mssql.doctor;

import io.dpone.backfill.core.doctor.Finding;
import io.dpone.backfill.core.doctor.Severity;
import org.junit.jupiter.api.Test;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 24: dynamic data masking and Always Encrypted columns would be published unmasked and in plain text, a
 * partitioned table unpartitioned, a compressed one uncompressed. Doctor refuses each, naming the feature and where it
 * is used. Catalog columns from MicrosoftDocs/sql-docs docs/relational-databases/system-catalog-views/
 * sys-columns-transact-sql.md (is_masked, encryption_type), sys-data-spaces-transact-sql.md (type PS),
 * sys-partitions-transact-sql.md (data_compression_desc).
 */
class MssqlDoctorFeaturesTest {
    @Test
    void eachFeatureInUseIsAnErrorNamingItAndWhereItIs() {
        Map<MssqlRefusedFeature, List<String>> uses = new EnumMap<>(MssqlRefusedFeature.class);
        uses.put(MssqlRefusedFeature.DYNAMIC_DATA_MASKING, List.of("email", "phone"));
        uses.put(MssqlRefusedFeature.ALWAYS_ENCRYPTED, List.of("ssn"));
        uses.put(MssqlRefusedFeature.PARTITIONING, List.of("(heap)"));
        uses.put(MssqlRefusedFeature.DATA_COMPRESSION, List.of("pk_orders PAGE"));

        List<Finding> findings = MssqlDoctorFeatures.findings("dbo.orders", uses);

        assertThat(findings).extracting(Finding::severity).containsOnly(Severity.ERROR);
        assertThat(findings).extracting(Finding::code).containsExactly("target.table.masked-columns",
                "target.table.encrypted-columns", "target.table.partitioned", "target.table.compression");
        assertThat(findings.get(0).message()).contains("dbo.orders", "dynamic data masking", "email, phone", "unmasked");
        assertThat(findings.get(1).message()).contains("Always Encrypted", "ssn", "plain text");
        assertThat(findings.get(2).message()).contains("partitioned", "(heap)");
        assertThat(findings.get(3).message()).contains("compression", "pk_orders PAGE");
    }

    @Test
    void aFeatureNobodyUsesIsNoFinding() {
        Map<MssqlRefusedFeature, List<String>> uses = new EnumMap<>(MssqlRefusedFeature.class);
        for (MssqlRefusedFeature feature : MssqlRefusedFeature.values()) {
            uses.put(feature, List.of());
        }
        assertThat(MssqlDoctorFeatures.findings("dbo.orders", uses)).isEmpty();
    }

    @Test
    void theCatalogQueriesSelectTheColumnsAndIndexesThatUseEachFeature() {
        assertThat(MssqlRefusedFeature.DYNAMIC_DATA_MASKING.sql()).contains("FROM sys.columns AS c",
                "c.object_id = ?", "c.is_masked = 1");
        assertThat(MssqlRefusedFeature.DYNAMIC_DATA_MASKING.requiredColumn()).isEqualTo("is_masked");
        assertThat(MssqlRefusedFeature.ALWAYS_ENCRYPTED.sql()).contains("c.encryption_type IS NOT NULL");
        assertThat(MssqlRefusedFeature.ALWAYS_ENCRYPTED.requiredColumn()).isEqualTo("encryption_type");
        assertThat(MssqlRefusedFeature.PARTITIONING.sql()).contains("JOIN sys.data_spaces AS ds",
                "ds.data_space_id = i.data_space_id", "ds.type = 'PS'");
        assertThat(MssqlRefusedFeature.DATA_COMPRESSION.sql()).contains("FROM sys.partitions AS p",
                "p.data_compression_desc NOT IN (N'NONE', N'COLUMNSTORE')");
        for (MssqlRefusedFeature feature : MssqlRefusedFeature.values()) {
            assertThat(feature.sql()).as(feature.name()).startsWith("SELECT ").containsOnlyOnce("?");
        }
    }
}
