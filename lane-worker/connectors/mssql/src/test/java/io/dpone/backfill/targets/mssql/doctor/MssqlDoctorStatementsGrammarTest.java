package io.dpone.backfill.targets.mssql.doctor;

import io.dpone.backfill.targets.mssql.TsqlStatementRules;
import io.dpone.backfill.targets.mssql.WorstCaseNames;
import io.dpone.backfill.targets.mssql.doctor.MssqlPermissionProbe.Subjects;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The doctor's statements that are assembled rather than fixed, against {@link TsqlStatementRules}: the one-SELECT
 * permission probe (one marker per fact with a subject, as {@link MssqlPermissionProbe#parameters} binds them),
 * every refused feature's catalog read (one marker: the live table's object id), the foreign keys' read and the
 * read of an inbound key's referencing values.
 */
class MssqlDoctorStatementsGrammarTest {
    @Test
    void thePermissionProbeObeysTheGrammarAndHasOneMarkerPerBoundSubject() {
        String sql = MssqlPermissionProbe.sql();
        Subjects subjects = new Subjects(WorstCaseNames.identifier("schema"), "[x].[y]", WorstCaseNames.identifier("state"));

        assertThat(TsqlStatementRules.problems(sql)).isEmpty();
        assertThat(TsqlStatementRules.parameterMarkers(sql)).isEqualTo(MssqlPermissionProbe.parameters(subjects).size());
    }

    @Test
    void everyRefusedFeaturesReadObeysTheGrammarWithOneMarker() {
        for (MssqlRefusedFeature feature : MssqlRefusedFeature.values()) {
            assertThat(TsqlStatementRules.problems(feature.sql())).as(feature + ": " + feature.sql()).isEmpty();
            assertThat(TsqlStatementRules.parameterMarkers(feature.sql())).as(feature.name()).isEqualTo(1);
        }
    }

    @Test
    void theForeignKeysReadObeysTheGrammarAndHasTheFourMarkersItBinds() {
        assertThat(TsqlStatementRules.problems(MssqlDoctorKeys.KEYS)).isEmpty();
        assertThat(TsqlStatementRules.parameterMarkers(MssqlDoctorKeys.KEYS)).isEqualTo(4);
    }

    @Test
    void theReferencingValuesReadObeysTheGrammarWithWorstCaseNames() {
        String sql = MssqlDoctorKeyValues.distinctSql("[x].[y]", List.of(WorstCaseNames.identifier("a"),
                WorstCaseNames.identifier("b")), MssqlDoctorKeyValues.PROBED_VALUES + 1);

        assertThat(TsqlStatementRules.problems(sql)).isEmpty();
        assertThat(TsqlStatementRules.parameterMarkers(sql)).isZero();
    }
}
