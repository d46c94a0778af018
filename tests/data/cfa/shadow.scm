; Shadowing: the inner f is its own variable.
((lambda (f)
   (f (lambda (f) (f f)) (lambda (u) (u u))))
 (lambda (g h) (g h)))
;= f@2: (g h)
;= f@3: (u)
;= u@3: (u)
;= g@4: (f)
;= h@4: (u)
