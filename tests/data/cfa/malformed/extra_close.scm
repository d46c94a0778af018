(lambda (x) (x x)))
