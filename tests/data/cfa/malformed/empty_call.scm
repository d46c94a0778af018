(lambda (x) ())
