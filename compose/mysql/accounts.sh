# Sourced by the MySQL image's entrypoint once, on a fresh data volume: the migration account (the schema
# is its: everything on the seckill database, and the right to grant) and the application account (no
# privileges until `bin/seckill migrate` grants it its DML, table by table). Passwords come from the
# container's environment (.env), never from this file.
docker_process_sql --database=mysql <<-EOSQL
	CREATE USER 'seckill_migrator'@'%' IDENTIFIED BY '${SECKILL_MIGRATION_MYSQL_PASSWORD}';
	GRANT ALL PRIVILEGES ON seckill.* TO 'seckill_migrator'@'%' WITH GRANT OPTION;
	CREATE USER 'seckill_app'@'%' IDENTIFIED BY '${SECKILL_MYSQL_PASSWORD}';
EOSQL
