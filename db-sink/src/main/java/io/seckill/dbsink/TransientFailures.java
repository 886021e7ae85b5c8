package io.seckill.dbsink;

import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLRecoverableException;
import java.sql.SQLTransientException;

/** Tells a database hiccup (retry the batch) from a failure that the same records will hit again. */
final class TransientFailures {

    private static final int ER_LOCK_WAIT_TIMEOUT = 1205;
    private static final int ER_LOCK_DEADLOCK = 1213;

    private TransientFailures() {
    }

    static boolean isTransient(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof SQLTransientException || cause instanceof SQLRecoverableException
                    || cause instanceof SQLNonTransientConnectionException) {
                return true;
            }
            if (cause instanceof SQLException sql
                    && (sql.getErrorCode() == ER_LOCK_DEADLOCK || sql.getErrorCode() == ER_LOCK_WAIT_TIMEOUT
                        || "08".equals(state(sql)))) {
                return true;
            }
        }
        return false;
    }

    private static String state(SQLException sql) {
        return sql.getSQLState() == null || sql.getSQLState().length() < 2 ? "" : sql.getSQLState().substring(0, 2);
    }
}
