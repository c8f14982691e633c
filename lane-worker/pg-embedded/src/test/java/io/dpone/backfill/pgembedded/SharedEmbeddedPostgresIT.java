package io.dpone.backfill.pgembedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.Test;

class SharedEmbeddedPostgresIT {

    @Test
    void freshDatabasesAreIsolatedOnOneServer() throws Exception {
        EmbeddedPostgres pg = SharedEmbeddedPostgres.get();
        assertThat(SharedEmbeddedPostgres.get()).isSameAs(pg);

        String first = SharedEmbeddedPostgres.freshDatabase("orders");
        String second = SharedEmbeddedPostgres.freshDatabase("orders");
        assertThat(first).startsWith("orders_").isNotEqualTo(second);

        try (Connection c = pg.connect(first); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE item (id int)");
            s.execute("INSERT INTO item VALUES (42)");
        }
        try (Connection c = pg.connect(second); Statement s = c.createStatement()) {
            assertThatThrownBy(() -> s.executeQuery("SELECT * FROM item"))
                    .isInstanceOf(SQLException.class)
                    .hasMessageContaining("does not exist");
            s.execute("CREATE TABLE item (id int)");
            try (ResultSet rs = s.executeQuery("SELECT count(*) FROM item")) {
                rs.next();
                assertThat(rs.getInt(1)).isZero();
            }
        }
    }

    @Test
    void rejectsPrefixesThatNeedQuoting() {
        assertThatThrownBy(() -> SharedEmbeddedPostgres.freshDatabase("Bad-Prefix"))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> SharedEmbeddedPostgres.freshDatabase("x".repeat(41)))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
