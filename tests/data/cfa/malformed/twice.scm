(lambda (x x) (x x))
