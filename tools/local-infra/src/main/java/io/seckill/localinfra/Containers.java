package io.seckill.localinfra;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.kafka.KafkaContainer;
import org.testcontainers.mysql.MySQLContainer;
import org.testcontainers.utility.DockerImageName;

/** The same three servers as Testcontainers containers, for machines with a Docker engine. */
final class Containers {

    private Containers() {
    }

    static boolean dockerAvailable() {
        try {
            return DockerClientFactory.instance().isDockerAvailable();
        } catch (RuntimeException | LinkageError e) {
            return false;
        }
    }

    static RunningServer redis() {
        GenericContainer<?> redis = new GenericContainer<>(DockerImageName.parse("redis:7.4.6")).withExposedPorts(6379);
        redis.start();
        return new Started(redis, "redis://" + redis.getHost() + ":" + redis.getMappedPort(6379));
    }

    /** The broker of the clients' release (a test holds this tag and docker-compose.yml's to kafka.version). */
    static RunningServer kafka() {
        KafkaContainer kafka = new KafkaContainer(DockerImageName.parse("apache/kafka:4.4.0"))
                .withEnv("KAFKA_TRANSACTION_ABORT_TIMED_OUT_TRANSACTION_CLEANUP_INTERVAL_MS", "1000");
        kafka.start();
        return new Started(kafka, kafka.getBootstrapServers());
    }

    static MySqlServer mysql() {
        MySQLContainer mysql = new MySQLContainer(DockerImageName.parse("mysql:8.4")).withDatabaseName("seckill");
        mysql.start();
        return new StartedMySql(mysql);
    }

    private record Started(GenericContainer<?> container, String address) implements RunningServer {
        @Override
        public void close() {
            container.stop();
        }
    }

    private record StartedMySql(MySQLContainer container) implements MySqlServer {
        @Override
        public String address() {
            return container.getJdbcUrl();
        }

        /** As root over JDBC: the container's root password is its user's. */
        @Override
        public void administer(List<String> statements) {
            try (Connection connection =
                            DriverManager.getConnection(container.getJdbcUrl(), "root", container.getPassword());
                    Statement statement = connection.createStatement()) {
                for (String sql : statements) {
                    statement.execute(sql);
                }
            } catch (SQLException e) {
                throw new IllegalStateException("cannot administer the MySQL container: " + e.getMessage(), e);
            }
        }

        @Override
        public void close() {
            container.stop();
        }
    }
}
