# Sourced by the MySQL image's entrypoint once, on a fresh data volume: the migration account (the schema
# is its: everything on the seckill database, and the right to grant) and each service's account (no
# privileges until `bin/seckill migrate` grants it the statements its code runs, table by table). Passwords come
# from the container's environment (.env), never from this file.
docker_process_sql --database=mysql <<-EOSQL
	CREATE USER 'seckill_migrator'@'%' IDENTIFIED BY '${SECKILL_MIGRATION_MYSQL_PASSWORD}';
	GRANT ALL PRIVILEGES ON seckill.* TO 'seckill_migrator'@'%' WITH GRANT OPTION;
	CREATE USER 'seckill_ingress'@'%' IDENTIFIED BY '${MYSQL_INGRESS_PASSWORD}';
	CREATE USER 'seckill_admin'@'%' IDENTIFIED BY '${MYSQL_ADMIN_PASSWORD}';
	CREATE USER 'seckill_sink'@'%' IDENTIFIED BY '${MYSQL_DB_SINK_PASSWORD}';
	CREATE USER 'seckill_reconciler'@'%' IDENTIFIED BY '${MYSQL_RECONCILER_PASSWORD}';
EOSQL
