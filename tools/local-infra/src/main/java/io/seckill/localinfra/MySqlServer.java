package io.seckill.localinfra;

import java.util.List;

/** A MySQL-compatible server with a {@code seckill} database; {@link #address()} is its JDBC URL. */
interface MySqlServer extends RunningServer {

    /** Runs {@code statements} as the server's administrator (accounts and grants are an administrator's to make). */
    void administer(List<String> statements);
}
