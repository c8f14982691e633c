package io.dpone.backfill.connect;

import java.sql.Connection;
import java.sql.SQLException;

/** Opens a new connection to one database, named for the server's activity view. */
@FunctionalInterface
public interface Connector {
    Connection open(String applicationName) throws SQLException;
}
