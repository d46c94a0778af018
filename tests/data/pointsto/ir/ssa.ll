; ModuleID = 'ssa.c'
source_filename = "ssa.c"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@a = dso_local global i32 0, align 4
@b = dso_local global i32 0, align 4
@o1 = dso_local local_unnamed_addr global i32* null, align 8
@c = dso_local global i32 0, align 4
@o2 = dso_local local_unnamed_addr global i32* null, align 8
@o3 = dso_local local_unnamed_addr global i32* null, align 8

; Function Attrs: nofree noinline norecurse nosync nounwind readnone uwtable
define dso_local nonnull i32* @pick(i32 noundef %k) local_unnamed_addr #0 {
entry:
  %cmp6 = icmp sgt i32 %k, 0
  br i1 %cmp6, label %for.body, label %for.cond.cleanup

for.cond.cleanup:                                 ; preds = %for.body, %entry
  %p.0.lcssa = phi i32* [ @a, %entry ], [ %cond, %for.body ]
  ret i32* %p.0.lcssa

for.body:                                         ; preds = %entry, %for.body
  %i.08 = phi i32 [ %inc, %for.body ], [ 0, %entry ]
  %p.07 = phi i32* [ %cond, %for.body ], [ @a, %entry ]
  %and = and i32 %i.08, 1
  %tobool.not = icmp eq i32 %and, 0
  %cond = select i1 %tobool.not, i32* %p.07, i32* @b
  %inc = add nuw nsw i32 %i.08, 1
  %exitcond.not = icmp eq i32 %inc, %k
  br i1 %exitcond.not, label %for.cond.cleanup, label %for.body, !llvm.loop !5
}

; Function Attrs: nofree norecurse nosync nounwind uwtable writeonly
define dso_local i32 @main(i32 noundef %argc, i8** nocapture noundef readnone %argv) local_unnamed_addr #1 {
entry:
  %call = call i32* @pick(i32 noundef %argc)
  store i32* %call, i32** @o1, align 8, !tbaa !8
  %cmp = icmp sgt i32 %argc, 2
  %cond = select i1 %cmp, i32* @c, i32* @a
  store i32* %cond, i32** @o2, align 8, !tbaa !8
  store i32* inttoptr (i64 add (i64 ptrtoint (i32* @c to i64), i64 4) to i32*), i32** @o3, align 8, !tbaa !8
  ret i32 0
}

attributes #0 = { nofree noinline norecurse nosync nounwind readnone uwtable "frame-pointer"="none" "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #1 = { nofree norecurse nosync nounwind uwtable writeonly "frame-pointer"="none" "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }

!llvm.module.flags = !{!0, !1, !2, !3}
!llvm.ident = !{!4}

!0 = !{i32 1, !"wchar_size", i32 4}
!1 = !{i32 7, !"PIC Level", i32 2}
!2 = !{i32 7, !"PIE Level", i32 2}
!3 = !{i32 7, !"uwtable", i32 1}
!4 = !{!"Debian clang version 14.0.6"}
!5 = distinct !{!5, !6, !7}
!6 = !{!"llvm.loop.mustprogress"}
!7 = !{!"llvm.loop.unroll.disable"}
!8 = !{!9, !9, i64 0}
!9 = !{!"any pointer", !10, i64 0}
!10 = !{!"omnipotent char", !11, i64 0}
!11 = !{!"Simple C/C++ TBAA"}
