from airflow.decorators import dag, task


@dag(schedule=None)
def values():
    @task
    def produce():
        return 42

    @task
    def consume(n):
        print(n)

    consume(produce())


values()
